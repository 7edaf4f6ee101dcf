"""A foreign TEI/UGI engine as the GUI meets them, for the GUI's tests: it runs a real engine
(argv[1]) and passes every line both ways, but answers each search late (argv[2] ms after the
engine, 250 by default: past a fixed move time, as engines that check their clock seldom do) and
sends a long info line first (a full PV and a long string, as Tiltak's and Rapfi's lines are)."""
import sys
import time

from relay import relay

delay = (int(sys.argv[2]) if len(sys.argv) > 2 else 250) / 1000


def engine_line(line):
    if line.startswith("bestmove"):
        print("info depth 1 score cp 0 nodes 1 string " + "long-line " * 300, flush=True)
        time.sleep(delay)
    print(line, end="", flush=True)


relay([sys.argv[1]], engine_line, "quit")
