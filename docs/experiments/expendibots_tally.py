#!/usr/bin/env python3
"""Tallies arbiter Expendibots records (referee-style game logs) for docs/experiments/expendibots.md.

usage: expendibots_tally.py match NAME FILE...   from engine NAME's side: W/D/L, score with a 95%
                                                  interval, turns to win, how games ended
       expendibots_tally.py cpu STDERR_FILE...    the alphabeta player's CPU per game, from the
                                                  "game CPU <ms> ms over <n> own turns" lines
"""
import math
import re
import sys


def games(paths):
    for path in paths:
        text = open(path).read()
        for block in re.split(r"\n\s*\n", text.strip()):
            tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', block, re.M))
            if "Result" not in tags:
                continue
            white_turns = len(re.findall(r"^\[white\] - ", block, re.M))
            black_turns = len(re.findall(r"^\[black\] - ", block, re.M))
            yield tags, white_turns, black_turns


def match(name, paths):
    wins = draws = losses = 0
    win_turns = []
    endings = {}
    for tags, white_turns, black_turns in games(paths):
        if name not in (tags["White"], tags["Black"]):
            continue
        white = tags["White"] == name
        result = tags["Result"]
        endings[tags["Termination"]] = endings.get(tags["Termination"], 0) + 1
        if result == "1/2-1/2":
            draws += 1
        elif (result == "1-0") == white:
            wins += 1
            win_turns.append(white_turns if white else black_turns)
        else:
            losses += 1
    n = wins + draws + losses
    if n == 0:
        print(f"{name}: no games")
        return
    points = [1.0] * wins + [0.5] * draws + [0.0] * losses
    mean = sum(points) / n
    se = math.sqrt(sum((p - mean) ** 2 for p in points) / n / n)
    turns = sorted(win_turns)
    median = turns[len(turns) // 2] if turns else 0
    mean_turns = sum(turns) / len(turns) if turns else 0
    print(f"{name}: {n} games, +{wins} ={draws} -{losses}, score {mean:.3f} +- {1.96 * se:.3f}; "
          f"turns to win: mean {mean_turns:.1f}, median {median}, range {turns[0] if turns else 0}-{turns[-1] if turns else 0}; "
          f"endings: " + ", ".join(f"{k} {v}" for k, v in sorted(endings.items())))


def cpu(paths):
    values = []
    for path in paths:
        for ms, turns in re.findall(r"game CPU (\d+) ms over (\d+) own turns", open(path).read()):
            values.append((int(ms), int(turns)))
    if not values:
        print("no CPU lines")
        return
    ms = [v[0] for v in values]
    print(f"{len(values)} games: CPU per game mean {sum(ms) / len(ms) / 1000:.1f} s, max {max(ms) / 1000:.1f} s; "
          f"own turns mean {sum(v[1] for v in values) / len(values):.1f}, max {max(v[1] for v in values)}")


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "match":
        match(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) >= 3 and sys.argv[1] == "cpu":
        cpu(sys.argv[2:])
    else:
        sys.exit(__doc__)
