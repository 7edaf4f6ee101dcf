#!/usr/bin/env python3
"""Asks a `tak` binary about the late positions tak_endgame_positions.py wrote.

For each position: `go` with the given limit (default `go depth 1`), with the given options, and
reads the last info line: whether it came from the endgame solver (`endgame`), its score, depth
and time. Prints one line per position and a summary by plies before the end.

    tak_endgame_probe.py --tak build-h2/bin/tak --positions late.txt \
        --option EndgamePlacements=100 --option EndgameNodes=1000000
    tak_endgame_probe.py --tak /work/ref/tak_before_endgame --positions late.txt --go "movetime 100"
"""
import argparse
import collections
import subprocess


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tak", required=True)
    parser.add_argument("--positions", required=True)
    parser.add_argument("--go", default="depth 1")
    parser.add_argument("--half-komi", type=int, default=4)
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE")
    parser.add_argument("--quiet", action="store_true", help="only the summary")
    args = parser.parse_args()
    process = subprocess.Popen([args.tak], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(line):
        process.stdin.write(line + "\n")
        process.stdin.flush()

    def until(prefix):
        lines = []
        while True:
            line = process.stdout.readline().rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    send("tei")
    until("teiok")
    send(f"setoption name HalfKomi value {args.half_komi}")
    for option in args.option:
        name, value = option.split("=", 1)
        send(f"setoption name {name} value {value}")
    by_distance = collections.defaultdict(lambda: [0, 0, 0, [], []])  # positions, proven, agree, times, depths
    for line in open(args.positions):
        tps, before, result = line.rstrip("\n").split("\t")
        before = int(before)
        send("position tps " + tps)
        send("go " + args.go)
        lines = until("bestmove")
        info = [l for l in lines if l.startswith("info ")][-1].split()
        depth = int(info[info.index("depth") + 1])
        time = int(info[info.index("time") + 1])
        kind, score = info[info.index("score") + 1], int(info[info.index("score") + 2])
        proven = "endgame" in info
        mover_white = tps.split()[1] == "1"
        winner_white = {"F-0": True, "0-F": False}.get(result)
        agree = False
        if proven and kind == "mate" and winner_white is not None:
            agree = (score > 0) == (mover_white == winner_white)
        elif proven and kind == "cp":
            agree = result == "1/2-1/2"
        row = by_distance[before]
        row[0] += 1
        row[1] += proven
        row[2] += agree
        if proven:
            row[3].append(time)
        row[4].append(depth)
        if not args.quiet:
            print(f"{before:3d} {'proven' if proven else '      '} {kind} {score:7d} depth {depth:2d} "
                  f"time {time:5d} {result} {tps}")
    send("quit")
    print("plies before the end: positions, proven, proven agreeing with the game's result, "
          "median/max time of the proofs (ms), mean depth")
    for before in sorted(by_distance):
        positions, proven, agree, times, depths = by_distance[before]
        times.sort()
        median = times[len(times) // 2] if times else 0
        maximum = times[-1] if times else 0
        print(f"{before:3d}: {positions:3d} {proven:3d} {agree:3d} {median:5d} {maximum:5d} "
              f"{sum(depths) / len(depths):5.2f}")
    total = [sum(by_distance[b][i] for b in by_distance) for i in range(3)]
    print(f"all: {total[0]} positions, {total[1]} proven, {total[2]} agree")


if __name__ == "__main__":
    main()
