#!/usr/bin/env python3
"""Time to depth at several thread counts, on an engine's own bench positions.

`bench D` searches every bench position to depth D and logs each position's time on stderr
("bench position 3/8: 123456 nodes, 210 ms, best e4"). With Threads N the main thread ends a
position once it or a helper completed depth D, so the time is the time to depth. This runs
bench at each thread count, alternating them `--runs` times so that a change of load hits every
count alike, and prints per position the median time at each count, its ratio to the first count,
and the median of those ratios.

    docs/experiments/time_to_depth.py --engine build/bin/tak --depth 7 --threads 1 2 --runs 3
    docs/experiments/time_to_depth.py --engine build/bin/gomoku --setup "setoption name Player value alphabeta"

A ratio needs the machine to itself: nothing else running, not even a build.
"""
import argparse
import re
import statistics
import subprocess
import sys

LINE = re.compile(r"bench position (\d+)/(\d+): (\d+) nodes, (\d+) ms")


def bench(engine, setup, threads, depth):
    commands = list(setup) + [f"setoption name Threads value {threads}", f"bench {depth}"]
    run = subprocess.run([engine] + commands, capture_output=True, text=True, check=True)
    times = {}
    nodes = {}
    for match in LINE.finditer(run.stderr):
        times[int(match.group(1))] = int(match.group(4))
        nodes[int(match.group(1))] = int(match.group(3))
    if not times:
        sys.exit(f"time_to_depth: no bench position lines on stderr of {engine}:\n{run.stderr[-2000:]}")
    return times, nodes


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", required=True)
    parser.add_argument("--depth", type=int, default=0, help="bench depth (0: the engine's own)")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--setup", action="append", default=[], help="a command sent before bench (repeatable)")
    args = parser.parse_args()

    samples = {t: {} for t in args.threads}
    node_samples = {t: {} for t in args.threads}
    depth = str(args.depth) if args.depth else ""
    for _ in range(args.runs):
        for threads in args.threads:
            times, nodes = bench(args.engine, args.setup, threads, depth)
            for position, ms in times.items():
                samples[threads].setdefault(position, []).append(ms)
                node_samples[threads].setdefault(position, []).append(nodes[position])

    base = args.threads[0]
    positions = sorted(samples[base])
    header = "position " + " ".join(f"{t:>3} thr ms" for t in args.threads)
    header += " " + " ".join(f"ratio {t}/{base}" for t in args.threads[1:])
    header += " " + " ".join(f"nodes {t}/{base}" for t in args.threads[1:])
    print(header)
    ratios = {t: [] for t in args.threads[1:]}
    node_ratios = {t: [] for t in args.threads[1:]}
    for position in positions:
        medians = {t: statistics.median(samples[t][position]) for t in args.threads}
        row = f"{position:>8} " + " ".join(f"{medians[t]:>10.0f}" for t in args.threads)
        for t in args.threads[1:]:
            ratio = medians[t] / max(1.0, medians[base])
            ratios[t].append(ratio)
            row += f" {ratio:>11.2f}"
        for t in args.threads[1:]:
            work = statistics.median(node_samples[t][position]) / max(1.0, statistics.median(node_samples[base][position]))
            node_ratios[t].append(work)
            row += f" {work:>11.2f}"
        print(row)
    for t in args.threads[1:]:
        print(f"median ratio {t}/{base} threads: {statistics.median(ratios[t]):.2f} "
              f"over {len(positions)} positions, {args.runs} runs each; "
              f"median nodes ratio {statistics.median(node_ratios[t]):.2f} (the work of all threads)")


if __name__ == "__main__":
    main()
