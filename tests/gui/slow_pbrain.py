"""A foreign pbrain engine as the GUI meets Rapfi, for the GUI's tests: it runs our gomoku engine
(argv[1]) in pbrain mode and passes every line both ways, but answers each move late (argv[2] ms,
200 by default) after Rapfi's own status lines: "MESSAGE Speed ... | Depth a-b | Eval v | Node n |
Time t" and a long "MESSAGE Bestline ..." line. Like Rapfi's pbrain, it has no infinite search:
it only answers TURN, BEGIN and BOARD."""
import re
import subprocess
import sys
import threading
import time

engine = subprocess.Popen([sys.argv[1]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
delay = (int(sys.argv[2]) if len(sys.argv) > 2 else 200) / 1000
evaluation = [37]


def relay_engine_output():
    for line in engine.stdout:
        if line.startswith("MESSAGE"):
            continue  # Rapfi's own words instead, below
        if re.match(r"^\d+,\d+\s*$", line):
            evaluation[0] = -evaluation[0] + 5
            print(f"MESSAGE Speed 605K | Depth 11-24 | Eval {evaluation[0]} | Node 120K | Time {int(delay * 1000)}ms", flush=True)
            print("MESSAGE Bestline " + " ".join(["H8"] * 200), flush=True)
            time.sleep(delay)
        print(line, end="", flush=True)


threading.Thread(target=relay_engine_output, daemon=True).start()
for line in sys.stdin:
    engine.stdin.write(line)
    engine.stdin.flush()
    if line.split()[:1] == ["END"]:
        break
engine.wait(timeout=10)
