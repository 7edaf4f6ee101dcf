#!/usr/bin/env python3
"""Where each player of a Tak match spends its clock, from the arbiter's PTN records.

Each move comment written by the arbiter reads `{+0.45/12 0.58s}`: the score, the depth and the
time the move took. For every player this prints, for the moves more than 20 plies before the end
of their game and for the last 20 plies, the number of moves, the median and mean depth (proven
results, `M`, left out), the mean time a move and the moves that reported a proven result.

With --moves-left SIZE it prints instead, for each number L of pieces (stones and capstone) the
mover still had, the median number of moves that mover still played before the game ended: the
table the `tak` player's time plan (engines/tak/players.cpp, plan_limits) was fitted to.

    tak_time_profile.py A.ptn [B.ptn ...]
    tak_time_profile.py --moves-left 6 A.ptn
"""
import argparse
import collections
import re
import statistics

PIECES = {3: 10, 4: 15, 5: 22, 6: 31, 7: 42, 8: 52}  # stones plus capstones of one side
COMMENT = re.compile(r"[+-]?(M?)[\d.]+/(\d+) ([\d.]+)s")
RESULT = re.compile(r"^(R-0|0-R|F-0|0-F|1/2-1/2|1-0|0-1|\*)$")


def games(text):
    """(tags, [(move, comment or None)]) for each game of a PTN file."""
    for block in re.split(r"\n\s*\n(?=\[)", text.strip()):
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', block))
        body = re.sub(r"\[.*?\]\n", "", block)
        moves = []
        for token in re.finditer(r"\{([^}]*)\}|(\S+)", body):
            if token.group(1) is not None:
                if moves:
                    moves[-1] = (moves[-1][0], token.group(1))
            elif not re.match(r"^\d+\.$", token.group(2)) and not RESULT.match(token.group(2)):
                moves.append((token.group(2), None))
        yield tags, moves


def profile(paths):
    for path in paths:
        phases = collections.defaultdict(list)
        for tags, moves in games(open(path, encoding="utf-8").read()):
            for ply, (_, comment) in enumerate(moves):
                match = COMMENT.match(comment or "")
                if not match:
                    continue  # a book move, or no comment
                player = tags.get("Player1" if ply % 2 == 0 else "Player2", "?")
                phase = "last 20" if len(moves) - ply <= 20 else "before"
                phases[(player, phase)].append((int(match.group(2)), float(match.group(3)), match.group(1) == "M"))
        for (player, phase), rows in sorted(phases.items()):
            depths = [depth for depth, _, proven in rows if not proven] or [0]
            times = [seconds for _, seconds, _ in rows]
            print(f"{path}  {player}  {phase:7}  moves {len(rows):5}  depth median {statistics.median(depths):4}"
                  f" mean {statistics.mean(depths):5.2f}  time mean {statistics.mean(times):.2f} s"
                  f"  proven {sum(proven for _, _, proven in rows)}")


def moves_left(size, paths):
    left_by_pieces = collections.defaultdict(list)
    for path in paths:
        for _, moves in games(open(path, encoding="utf-8").read()):
            used = [0, 0]
            for ply, (move, _) in enumerate(moves):
                mover = ply % 2
                left_by_pieces[PIECES[size] - used[mover]].append((len(moves) - ply + 1) // 2)
                if not re.search(r"[<>+\-]", move):  # a placement; the first two place the opponent's flat
                    used[1 - mover if ply < 2 else mover] += 1
    print("pieces left  positions  median moves left  planned (L + min(3L/5, 12), 6..50)")
    for pieces in sorted(left_by_pieces):
        rows = left_by_pieces[pieces]
        print(f"{pieces:11}  {len(rows):9}  {statistics.median(rows):17}  "
              f"{max(6, min(50, pieces + min(pieces * 3 // 5, 12)))}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("records", nargs="+")
    parser.add_argument("--moves-left", type=int, metavar="SIZE")
    arguments = parser.parse_args()
    if arguments.moves_left:
        moves_left(arguments.moves_left, arguments.records)
    else:
        profile(arguments.records)
