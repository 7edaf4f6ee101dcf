#!/usr/bin/env python3
"""SPSA tuning of engine options through the arbiter.

Each iteration perturbs every parameter by +-c_k at random, plays a short match of the engine
with theta + c_k*delta against itself with theta - c_k*delta, and moves theta along delta by
a_k * (score difference) / c_k, as fishtest and OpenBench do. Parameters are integer engine
options (spin options), set with option.NAME=VALUE on the arbiter's command line.

Example (the MCTS player's main knobs, 6x6 with komi 2, 0.2 s a move):

  tools/tune/spsa.py --engine build/bin/tak --option Player=mcts --option Threads=1 \\
      --param MctsCpuct:140:20:1000:30 --param MctsValueScale:400:50:3000:80 \\
      --param MctsPriorTemperature:100:20:500:20 \\
      --arbiter-args "-game tak -size 6 -komi 2 -each st=0.2" --book book.txt \\
      --games 16 --iterations 200 --concurrency 2 --log spsa.csv

A parameter is NAME:START:MIN:MAX:C_END (C_END: the perturbation size at the last iteration).
The schedules are the usual SPSA ones, c_k = c / (k + 1)^0.101 and a_k = a / (A + k + 1)^0.602
with A = iterations / 10; as in fishtest, c and a follow from the values at the last iteration,
c_end and a_end = r_end * c_end^2 (--r-end, 0.002 by default). After each iteration
theta += a_k / c_k * (W - L) * delta, where W - L is the plus engine's net score over the batch.
Progress goes to stdout and to the --log CSV file.
"""

import argparse
import json
import os
import random
import shlex
import subprocess
import sys
import tempfile


def parse_param(text):
    name, start, low, high, c_end = text.split(":")
    return {"name": name, "value": float(start), "min": float(low), "max": float(high), "c_end": float(c_end)}


def clamp(value, param):
    return max(param["min"], min(param["max"], value))


def play(args, plus, minus, seed):
    """Plays plus against minus; returns plus's points minus minus's points, per game."""
    with tempfile.TemporaryDirectory() as directory:
        results = os.path.join(directory, "results.json")
        command = [args.arbiter] + shlex.split(args.arbiter_args)
        for name, values in (("plus", plus), ("minus", minus)):
            command += ["-engine", f"cmd={args.engine}", f"name={name}"]
            command += [f"option.{key}={value}" for key, value in values.items()]
        command += ["-each", "stderr=/dev/null"] + [f"option.{o}" for o in args.option]
        command += ["-rounds", str(max(1, args.games // 2)), "-games", "2", "-concurrency", str(args.concurrency),
                    "-jsonout", results, "-srand", str(seed)]
        if args.book:
            command += ["-openings", f"file={args.book}", "format=moves", "order=random"]
        completed = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if completed.returncode not in (0,):
            sys.exit(f"spsa: the arbiter failed ({completed.returncode}): {completed.stderr.strip()}")
        with open(results) as file:
            games = json.load(file)["games"]
    points = 0.0
    for game in games:
        white_points = {"1-0": 1.0, "0-1": 0.0}.get(game["result"], 0.5)
        plus_points = white_points if game["white"] == 0 else 1.0 - white_points
        points += plus_points - (1.0 - plus_points)
    return points / max(1, len(games))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", required=True)
    parser.add_argument("--arbiter", default=os.path.join(os.path.dirname(__file__), "../../build/bin/arbiter"))
    parser.add_argument("--arbiter-args", default="-game tak -size 6 -komi 2 -each st=0.2")
    parser.add_argument("--option", action="append", default=[], help="fixed option NAME=VALUE for both engines")
    parser.add_argument("--param", action="append", required=True, type=parse_param)
    parser.add_argument("--book", default="")
    parser.add_argument("--games", type=int, default=16, help="games per iteration (pairs of two)")
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--r-end", type=float, default=0.002)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log", default="spsa.csv")
    args = parser.parse_args()

    alpha, gamma = 0.602, 0.101
    big_a = 0.1 * args.iterations
    rng = random.Random(args.seed)
    params = args.param
    for p in params:
        p["c"] = p["c_end"] * args.iterations ** gamma
        p["a"] = args.r_end * p["c_end"] ** 2 * (big_a + args.iterations) ** alpha

    with open(args.log, "a") as log:
        log.write("iteration,result," + ",".join(p["name"] for p in params) + "\n")
        for k in range(args.iterations):
            deltas = [rng.choice((-1, 1)) for _ in params]
            plus, minus = {}, {}
            for p, delta in zip(params, deltas):
                c_k = p["c"] / (k + 1) ** gamma
                plus[p["name"]] = int(round(clamp(p["value"] + c_k * delta, p)))
                minus[p["name"]] = int(round(clamp(p["value"] - c_k * delta, p)))
            result = play(args, plus, minus, seed=args.seed * 100000 + k)
            for p, delta in zip(params, deltas):
                c_k = p["c"] / (k + 1) ** gamma
                a_k = p["a"] / (big_a + k + 1) ** alpha
                p["value"] = clamp(p["value"] + a_k * result * delta / c_k * args.games, p)
            values = ",".join(f"{p['value']:.1f}" for p in params)
            log.write(f"{k + 1},{result:.3f},{values}\n")
            log.flush()
            print(f"iteration {k + 1}: result {result:+.3f}  " +
                  "  ".join(f"{p['name']}={p['value']:.1f}" for p in params), flush=True)


if __name__ == "__main__":
    main()
