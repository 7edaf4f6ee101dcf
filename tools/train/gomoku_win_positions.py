#!/usr/bin/env python3
"""The positions where a teacher announced a forced win, from arbiter game records, as a test
suite for `gomoku suite` (protocol/test_suite.hpp).

    tools/train/gomoku_win_positions.py --teacher rapfi [--per-rule N] RECORDS... > wins.txt

Every move of the teacher (the player named --teacher in the records' Black or White tag) whose
comment is a mate score ("+M10/20 0.60s", as the arbiter writes a pbrain engine's "Eval +M19")
gives one line: the position before the move, the move as `bm`, the announced plies to the win
(`win`: 2N - 1 for a mate in N moves), the rule, and an id FILE:GAME:PLY with "first" on the
game's first announcement (the hardest of a game's wins: the later ones are its continuation).
Book moves and moves of the other player are skipped. Only 15x15-style square boards with five
in a row are read; a record the script cannot follow is reported on stderr and skipped.
"""
import argparse
import re
import sys

TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
TOKEN = re.compile(r'\{[^}]*\}|\S+')
MATE = re.compile(r'^\+M(\d+)/')


def cell_of(move, size):
    """'h8' -> (x, y) with y counted from the top row, as in the FEN's row order."""
    match = re.fullmatch(r'([a-z])(\d+)', move)
    if not match:
        raise ValueError(f"cannot read the move '{move}'")
    x = ord(match.group(1)) - ord('a')
    y = size - int(match.group(2))
    if not (0 <= x < size and 0 <= y < size):
        raise ValueError(f"'{move}' is off the {size}x{size} board")
    return x, y


def fen_of(board, size, black_to_move):
    rows = []
    for y in range(size):
        row, empty = "", 0
        for x in range(size):
            stone = board.get((x, y))
            if stone is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += stone
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows) + (" x" if black_to_move else " o")


def games_of(text):
    """(tags, tokens) of every record in the text."""
    tags, body = {}, []
    for line in text.splitlines() + [""]:
        match = TAG.match(line)
        if match:
            if body:
                yield tags, TOKEN.findall(" ".join(body))
                tags, body = {}, []
            tags[match.group(1)] = match.group(2)
        elif line.strip():
            body.append(line)
        elif body:
            yield tags, TOKEN.findall(" ".join(body))
            tags, body = {}, []


def positions_of(path, game_number, tags, tokens, teacher):
    if tags.get("Game") != "gomoku" or tags.get("InARow", "5") != "5" or "FEN" in tags:
        return []
    size_text = tags.get("Size", "15x15")
    width, _, height = size_text.partition("x")
    if width != height:
        return []
    size = int(width)
    rule = tags.get("Rule", "freestyle")
    teacher_side = "x" if tags.get("Black") == teacher else "o" if tags.get("White") == teacher else None
    if teacher_side is None:
        return []
    board, lines, to_move, ply, announced = {}, [], "x", 0, False
    moves = []  # (move, comment)
    for token in tokens:
        if token.startswith("{"):
            if moves:
                moves[-1] = (moves[-1][0], token[1:-1].strip())
        elif re.fullmatch(r'\d+\.(\.\.)?', token) or token in ("1-0", "0-1", "1/2-1/2", "*"):
            continue
        else:
            moves.append((token, ""))
    for move, comment in moves:
        x, y = cell_of(move, size)
        if (x, y) in board:
            raise ValueError(f"ply {ply + 1}: {move} is occupied")
        mate = MATE.match(comment)
        if to_move == teacher_side and mate and comment != "book":
            plies = 2 * int(mate.group(1)) - 1
            ident = f"{path.rsplit('/', 1)[-1]}:{game_number}:{ply + 1}" + (":first" if not announced else "")
            lines.append(f"{fen_of(board, size, to_move == 'x')} ; bm {move} ; win {plies} ; "
                         f"option Rule={rule} ; id {ident}")
            announced = True
        board[(x, y)] = to_move
        to_move = "o" if to_move == "x" else "x"
        ply += 1
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--teacher", required=True, help="the teacher's name in the records")
    parser.add_argument("--first-only", action="store_true", help="only each game's first announcement")
    parser.add_argument("--per-rule", type=int, default=0,
                        help="at most this many lines a rule: every game's first announcement, then later "
                             "ones evenly spaced through the records (0: every line)")
    parser.add_argument("records", nargs="+")
    arguments = parser.parse_args()
    by_rule = {}
    for path in arguments.records:
        with open(path, encoding="utf-8") as file:
            text = file.read()
        for number, (tags, tokens) in enumerate(games_of(text), start=1):
            try:
                lines = positions_of(path, number, tags, tokens, arguments.teacher)
            except ValueError as error:
                print(f"{path}: game {number}: {error}; skipped", file=sys.stderr)
                continue
            for line in lines:
                if not arguments.first_only or line.endswith(":first"):
                    rule = re.search(r"option Rule=(\w+)", line).group(1)
                    by_rule.setdefault(rule, []).append(line)
    for rule, lines in by_rule.items():
        if arguments.per_rule and len(lines) > arguments.per_rule:
            first = [line for line in lines if line.endswith(":first")][: arguments.per_rule]
            later = [line for line in lines if not line.endswith(":first")]
            wanted = arguments.per_rule - len(first)
            step = len(later) / wanted if wanted else 0
            keep = set(first) | {later[int(i * step)] for i in range(wanted)}
            lines = [line for line in lines if line in keep]
        for line in lines:
            print(line)


if __name__ == "__main__":
    main()
