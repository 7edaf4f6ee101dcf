#!/usr/bin/env python3
"""How far before the end of a lost flat race our engine sees the loss, from an analysis.

Takes a match's PTN records and the dataset of `arbiter analyse` over them (our engine at the
match's increment, e.g. `st=0.1`), and for every game that NAME lost on flats reports, by plies
before the end: how often the search's score for the losing side is already negative, how often it
is a proven loss (`score mate -N`), and the median depth reached.

    arbiter analyse -engine cmd=build/bin/tak st=0.1 -data race.jsonl games.ptn
    tak_race_vision.py --records games.ptn --data race.jsonl --name tak-solver --plies 20
"""
import argparse
import collections
import json
import re
import statistics


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", required=True)
    parser.add_argument("--data", required=True)
    parser.add_argument("--name", required=True, help="our engine's name in the records")
    parser.add_argument("--plies", type=int, default=20)
    args = parser.parse_args()

    # Game number (from 1, as the dataset counts) -> (our side, result).
    games = {}
    text = open(args.records).read()
    number = 0
    for block in re.split(r"\n\s*\n(?=\[)", text.strip()):
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', block))
        if not tags:
            continue
        number += 1
        ours = "white" if tags.get("Player1") == args.name else "black" if tags.get("Player2") == args.name else None
        games[number] = (ours, tags.get("Result", ""))

    lines = collections.defaultdict(list)
    for line in open(args.data):
        entry = json.loads(line)
        lines[entry["game"]].append(entry)

    seen = collections.defaultdict(lambda: [0, 0, 0, []])  # before end -> [positions, negative, proven, depths]
    lost = 0
    for number, (ours, result) in games.items():
        if ours is None or "F" not in result:
            continue
        white_won = result.endswith("-0")
        if (ours == "white") == white_won:
            continue  # we won this one
        entries = lines.get(number, [])
        if not entries:
            continue
        lost += 1
        end = max(entry["ply"] for entry in entries) + 1  # the last move's position is over: no line
        for entry in entries:
            before = end - entry["ply"]
            if before > args.plies or entry["side"] != ours or entry["score_cp"] is None:
                continue
            bucket = seen[before]
            bucket[0] += 1
            bucket[1] += entry["score_cp"] < 0
            bucket[2] += entry["mate"] is not None and entry["mate"] <= 0
            bucket[3].append(entry["depth"])
    print(f"{lost} games lost on flats; our positions by plies before the end:")
    print("before  positions  sees the loss  proven  median depth")
    for before in sorted(seen):
        positions, negative, proven, depths = seen[before]
        print(f"{before:6}  {positions:9}  {negative:6} ({100 * negative / positions:3.0f} %)  {proven:6}  "
              f"{statistics.median(depths):12}")


if __name__ == "__main__":
    main()
