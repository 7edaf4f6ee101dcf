#!/usr/bin/env python3
"""Tallies arbiter PTN records for docs/experiments/tak.md.

usage: tak_tally.py colours FILE...          by colour: White wins / Black wins / draws
       tak_tally.py match NAME FILE...       from engine NAME's side: W/L/D, score, study score

Scores carry a 95% interval: the arbiter's (W + D/2)/N with 1.96 standard errors of the per-game
points, and the mean of the StudyScore tag (from the side asked for) with 1.96 standard errors.
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
                yield tags


def study_points(tag):  # "W+31" -> +31 for White, "B+27" -> -27, "0" -> 0
    if tag == "0":
        return 0
    return int(tag[2:]) * (1 if tag[0] == "W" else -1)


def interval(values):
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / n
    return mean, 1.95996 * math.sqrt(var / n)


def colours(paths):
    white = black = draws = 0
    scores = []
    for tags in games(paths):
        result = tags["Result"]
        if result.startswith("1/2"):
            draws += 1
        elif result.endswith("-0"):
            white += 1
        else:
            black += 1
        scores.append(study_points(tags["StudyScore"]))
    n = white + black + draws
    points = [1.0] * white + [0.0] * black + [0.5] * draws
    s, e = interval(points)
    m, me = interval(scores)
    print(f"| {n} | {white} ({100*white/n:.1f}%) | {black} ({100*black/n:.1f}%) | {draws} ({100*draws/n:.1f}%) "
          f"| {s:.3f} ± {e:.3f} | {m:+.1f} ± {me:.1f} |")


def match(name, paths):
    wins = losses = draws = 0
    points, scores = [], []
    for tags in games(paths):
        side = "W" if tags["Player1"] == name else "B" if tags["Player2"] == name else None
        if side is None:
            continue
        result = tags["Result"]
        sign = 1 if side == "W" else -1
        if result.startswith("1/2"):
            draws += 1
            points.append(0.5)
        elif (result.endswith("-0")) == (side == "W"):
            wins += 1
            points.append(1.0)
        else:
            losses += 1
            points.append(0.0)
        scores.append(sign * study_points(tags["StudyScore"]))
    n = len(points)
    s, e = interval(points)
    m, me = interval(scores)
    print(f"| {n} | {wins} | {losses} | {draws} | {s:.3f} ± {e:.3f} | {m:+.1f} ± {me:.1f} |")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "colours":
        colours(sys.argv[2:])
    elif len(sys.argv) >= 4 and sys.argv[1] == "match":
        match(sys.argv[2], sys.argv[3:])
    else:
        sys.exit(__doc__)
