"""A foreign TEI/UGI engine as the GUI meets them, for the GUI's tests: it runs a real engine
(argv[1]) and passes every line both ways, but answers each search late (argv[2] ms after the
engine, 250 by default: past a fixed move time, as engines that check their clock seldom do) and
sends a long info line first (a full PV and a long string, as Tiltak's and Rapfi's lines are)."""
import subprocess
import sys
import threading
import time

engine = subprocess.Popen([sys.argv[1]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
delay = (int(sys.argv[2]) if len(sys.argv) > 2 else 250) / 1000


def relay_engine_output():
    for line in engine.stdout:
        if line.startswith("bestmove"):
            print("info depth 1 score cp 0 nodes 1 string " + "long-line " * 300, flush=True)
            time.sleep(delay)
        print(line, end="", flush=True)


threading.Thread(target=relay_engine_output, daemon=True).start()
for line in sys.stdin:
    engine.stdin.write(line)
    engine.stdin.flush()
    if line.split()[:1] == ["quit"]:
        break
engine.wait(timeout=10)
