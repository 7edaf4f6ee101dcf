#!/usr/bin/env python3
"""Tallies arbiter -pgnout records of ur matches: games, each engine's score with a 95% interval,
its score as Light and as Dark, and the mean number of decisions (moves other than rolls) per game.
    docs/experiments/ur_tally.py /tmp/ur/td_vs_expectimax.pgn ...
"""
import math
import re
import sys
from collections import defaultdict


def games_of(path):
    game = {}
    moves = []
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        tag = re.match(r'\[(\w+) "(.*)"\]', line)
        if tag:
            if moves:
                yield game, moves
                game, moves = {}, []
            game[tag.group(1)] = tag.group(2)
        elif line:
            moves += line.split()
    if game:
        yield game, moves


for path in sys.argv[1:]:
    points = defaultdict(list)
    as_colour = defaultdict(lambda: defaultdict(list))
    decisions = []
    for game, moves in games_of(path):
        result = game["Result"]
        light, dark = game["Light"], game["Dark"]
        light_points = {"1-0": 1.0, "0-1": 0.0}[result]
        points[light].append(light_points)
        points[dark].append(1 - light_points)
        as_colour[light]["light"].append(light_points)
        as_colour[dark]["dark"].append(1 - light_points)
        decisions.append(sum(1 for m in moves if not re.fullmatch(r"r[0-4]|1-0|0-1|\*", m)))
    print(path)
    for name, scores in points.items():
        n = len(scores)
        mean = sum(scores) / n
        sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / (n - 1)) if n > 1 else 0
        light = as_colour[name]["light"]
        dark = as_colour[name]["dark"]
        print(f"  {name}: {n} games, score {mean:.4f} +- {1.96 * sd / math.sqrt(n):.4f}; "
              f"as Light {sum(light) / len(light):.4f} ({len(light)}), as Dark {sum(dark) / len(dark):.4f} ({len(dark)})")
    print(f"  decisions per game: mean {sum(decisions) / len(decisions):.1f}")
