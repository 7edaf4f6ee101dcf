#!/usr/bin/env python3
"""Tallies arbiter Gomoku records for docs/experiments/gomoku.md.

usage: gomoku_tally.py match NAME FILE...            from engine NAME's side: N, W/L/D, score
       gomoku_tally.py pair NAME OTHER FILE...       the same, only games between NAME and OTHER
       gomoku_tally.py ordered NAME OTHER FILE...    only games with NAME first (Black), OTHER second

Records name the first player Black and the second White (docs/gomoku.md, "Game records").
The score is (W + D/2)/N with 1.96 standard errors of the per-game points; also the share of
games won by the first player and the mean length in stones.
"""
import math
import re
import sys


def games(paths):
    for path in paths:
        text = open(path).read()
        for block in re.split(r"\n\s*\n(?=\[)", text.strip()):
            tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', block, re.M))
            if "Result" in tags:
                plies = len(re.findall(r"\b[a-v]\d{1,2}\b", re.sub(r"\[.*?\]|\{.*?\}", "", block)))
                yield tags, plies


def tally(name, other, paths, ordered=False):
    wins = losses = draws = first_wins = 0
    points, lengths = [], []
    for tags, plies in games(paths):
        players = (tags["Black"], tags["White"])
        if name not in players or (other and other not in players):
            continue
        if ordered and players != (name, other):
            continue
        first = tags["Black"] == name
        result = tags["Result"]
        lengths.append(plies)
        if result == "1-0":
            first_wins += 1
        if result.startswith("1/2"):
            draws += 1
            points.append(0.5)
        elif (result == "1-0") == first:
            wins += 1
            points.append(1.0)
        else:
            losses += 1
            points.append(0.0)
    n = len(points)
    if n == 0:
        sys.exit(f"no games of {name}")
    mean = sum(points) / n
    error = 1.95996 * math.sqrt(sum((p - mean) ** 2 for p in points) / n / n)
    print(f"| {n} | {wins} | {losses} | {draws} | {mean:.3f} ± {error:.3f} | {first_wins / n:.2f} "
          f"| {sum(lengths) / n:.1f} |")


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "match":
        tally(sys.argv[2], None, sys.argv[3:])
    elif len(sys.argv) >= 5 and sys.argv[1] == "pair":
        tally(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif len(sys.argv) >= 5 and sys.argv[1] == "ordered":
        tally(sys.argv[2], sys.argv[3], sys.argv[4:], ordered=True)
    else:
        sys.exit(__doc__)
