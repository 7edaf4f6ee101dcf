"""A foreign pbrain engine as the GUI meets Rapfi, for the GUI's tests: it runs our gomoku engine
(argv[1]) in pbrain mode and passes every line both ways, but answers each move late (argv[2] ms,
200 by default) after Rapfi's own status lines: "MESSAGE Depth a-b | Eval v | Time t | H8" with
its PV in Rapfi's labels (the column's letter, the row's number from 1 at pbrain's top row), "MESSAGE
Speed ... | Depth a-b | Eval v | Node n | Time t" and a long line of words. Like Rapfi's pbrain, it
has no infinite search: it only answers TURN, BEGIN and BOARD (and YXSTOP, which our engine knows)."""
import re
import sys
import time

from relay import relay

delay = (int(sys.argv[2]) if len(sys.argv) > 2 else 200) / 1000
evaluation = [37]


def engine_line(line):
    if line.startswith("MESSAGE"):
        return  # Rapfi's own words instead, below
    answer = re.match(r"^(\d+),(\d+)\s*$", line)
    if answer:
        evaluation[0] = -evaluation[0] + 5
        label = chr(ord("A") + int(answer.group(1))) + str(int(answer.group(2)) + 1)
        print(f"MESSAGE Depth 11-24 | Eval {evaluation[0]} | Time {int(delay * 1000)}ms | {label}", flush=True)
        print(f"MESSAGE Speed 605K | Depth 11-24 | Eval {evaluation[0]} | Node 120K | Time {int(delay * 1000)}ms", flush=True)
        print("MESSAGE " + "long-words " * 300, flush=True)
        time.sleep(delay)
    print(line, end="", flush=True)


relay([sys.argv[1]], engine_line, "END")
