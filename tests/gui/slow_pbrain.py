"""A foreign pbrain engine as the GUI meets Rapfi, for the GUI's tests: it runs our gomoku engine
(argv[1]) in pbrain mode and passes every line both ways, but answers each move late (argv[2] ms,
200 by default) after Rapfi's own status lines: "MESSAGE Speed ... | Depth a-b | Eval v | Node n |
Time t" and a long "MESSAGE Bestline ..." line. Like Rapfi's pbrain, it has no infinite search:
it only answers TURN, BEGIN and BOARD."""
import re
import sys
import time

from relay import relay

delay = (int(sys.argv[2]) if len(sys.argv) > 2 else 200) / 1000
evaluation = [37]


def engine_line(line):
    if line.startswith("MESSAGE"):
        return  # Rapfi's own words instead, below
    if re.match(r"^\d+,\d+\s*$", line):
        evaluation[0] = -evaluation[0] + 5
        print(f"MESSAGE Speed 605K | Depth 11-24 | Eval {evaluation[0]} | Node 120K | Time {int(delay * 1000)}ms", flush=True)
        print("MESSAGE Bestline " + " ".join(["H8"] * 200), flush=True)
        time.sleep(delay)
    print(line, end="", flush=True)


relay([sys.argv[1]], engine_line, "END")
