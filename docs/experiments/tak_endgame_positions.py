#!/usr/bin/env python3
"""Late positions of self-play games decided on flats, for measuring the endgame solver.

Plays games of one `tak` binary against itself (TEI over pipes, `go nodes N` a move, openings from
a book of move lines), and for every game that ends on flats writes the TPS of the positions in
its last PLIES plies, one a line: `<tps>\t<plies before the end>\t<result>`.

    tak_endgame_positions.py --tak build-h2/bin/tak --book 6s_4ply_balanced_openings.txt \
        --games 20 --nodes 20000 --plies 20 > late.txt

Then tak_endgame_probe.py asks the solver about each position.
"""
import argparse
import random
import subprocess
import sys


class Engine:
    def __init__(self, command, options):
        self.process = subprocess.Popen([command], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("tei")
        self.until("teiok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("the engine closed its output")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def board(self, moves):
        self.send("position startpos moves " + " ".join(moves))
        self.send("d")
        self.send("isready")
        tps, result = None, None
        for line in self.until("readyok"):
            if line.startswith("TPS: "):
                tps = line[5:]
            if "Result: " in line:
                result = line.split("Result: ")[1].strip()
        return tps, result

    def close(self):
        self.send("quit")
        self.process.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tak", required=True)
    parser.add_argument("--book", required=True)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--nodes", type=int, default=20000)
    parser.add_argument("--plies", type=int, default=20)
    parser.add_argument("--size", type=int, default=6)
    parser.add_argument("--half-komi", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE for the engine")
    args = parser.parse_args()
    openings = [line.split() for line in open(args.book) if line.strip()]
    rng = random.Random(args.seed)
    options = [("HalfKomi", args.half_komi)] + [tuple(o.split("=", 1)) for o in args.option]
    engine = Engine(args.tak, options)
    flats = 0
    for game in range(args.games):
        engine.send(f"teinewgame {args.size}")
        moves = list(rng.choice(openings))
        history = []
        while True:
            tps, result = engine.board(moves)
            history.append(tps)
            if result != "ongoing" or len(moves) > 300:
                break
            engine.send("position startpos moves " + " ".join(moves))
            engine.send(f"go nodes {args.nodes}")
            moves.append(engine.until("bestmove")[-1].split()[1])
        print(f"game {game}: {len(moves)} plies, {result}", file=sys.stderr)
        if result in ("F-0", "0-F", "1/2-1/2"):
            flats += 1
            for before, position in enumerate(reversed(history[-args.plies - 1:-1]), start=1):
                print(f"{position}\t{before}\t{result}", flush=True)
    print(f"{flats} of {args.games} games ended on flats", file=sys.stderr)
    engine.close()


if __name__ == "__main__":
    main()
