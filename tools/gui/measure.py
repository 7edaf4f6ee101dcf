#!/usr/bin/python3
"""Benchmark commands for the GUI (docs/gui.md, "Measured"), in headless Chromium:

  measure.py latency --bin build/bin [--moves 30]
      A person plays Tak 6x6 against the engine by clicks. Between the GUI and the engine sits a
      probe that stamps each line the moment it arrives on the engine's stdin; the page stamps
      each click. Prints the click -> `position ... <that move>` delays: median, quartiles, max.

  measure.py memory --bin build/bin [--games 8] [--seconds 30]
      `gui watch` runs a match with that many games at once while a page watches them all.
      Prints the gui process's resident memory (VmRSS) over the run and its peak (VmHWM).

Both stamps use the machine's wall clock (Chromium's performance.timeOrigin + now(), Python's
time.time_ns()), which the browser and the probe share.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "gui"))
import gui_browser_test as browser  # noqa: E402  (the same browser set-up and page helpers)

PROBE = r'''
import subprocess, sys, threading, time
log = open(sys.argv[1], "a", buffering=1)
engine = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def forward():
    for line in engine.stdout:
        sys.stdout.write(line); sys.stdout.flush()
threading.Thread(target=forward, daemon=True).start()
for line in sys.stdin:
    stamp = time.time_ns()
    if line.startswith("position"):
        log.write(f"{stamp} {line}")
    engine.stdin.write(line); engine.stdin.flush()
engine.stdin.close(); engine.wait()
'''


def latency(args):
    directory = tempfile.mkdtemp(prefix="gui-latency-")
    probe = os.path.join(directory, "probe.py")
    log = os.path.join(directory, "engine-input.log")
    with open(probe, "w") as file:
        file.write(PROBE)
    engine = os.path.join(args.bin, "tak")
    gui = browser.Gui(os.path.join(args.bin, "gui"),
                      ["--engine", f'game=tak name=probed proto=tei cmd={sys.executable} "args={probe} {log} {engine}"'])
    driver = browser.start_browser(os.path.join(directory, "profile"))
    delays = []
    games = 0
    try:
        page = browser.Page(driver, gui.url)
        driver.execute_script("window.clicks = []; document.addEventListener('click', () => "
                              "window.clicks.push(performance.timeOrigin + performance.now()), true)")
        page.tab("play")
        page.set_form("play-setup", {"game": "tak"})
        page.set_form("play-setup", {"size": "6", "movetime": "100", "player0": "person", "player1": "probed"})
        import random
        rng = random.Random(args.seed)
        games = 0
        while len(delays) < args.moves:
            if games == 0 or page.text("#play-result"):
                previous = page.attributes("#play-board", "data-id")[0]
                page.find("#play-new").click()
                page.wait(lambda: page.attributes("#play-board", "data-id")[0] != previous
                          and page.attributes("#play-board .target", "data-overlay"), 10, "no game")
                games += 1
            targets = page.attributes("#play-board .target", "data-overlay")
            # Placements only (one click each): the empty cells of the flat kind.
            empty = [cell for cell in targets if not page.attributes(f'#play-board [data-cell="{cell}"] [data-stack]', "data-stack")]
            if not empty:
                time.sleep(0.01)
                continue
            count = len(page.moves("play"))
            driver.execute_script("window.clicks = []")
            page.click_cell("play", rng.choice(empty))
            page.wait(lambda: len(page.moves("play")) >= count + 2 or page.text("#play-result"), 20, "no answer")
            clicked = driver.execute_script("return window.clicks")[-1]
            move = page.moves("play")[count]
            with open(log) as file:
                lines = [line.split(" ", 1) for line in file if line.rstrip().endswith(" " + move) or line.rstrip().endswith("moves " + move)]
            arrived = int(lines[-1][0]) / 1e6
            delays.append(arrived - clicked)
    finally:
        driver.quit()
        gui.stop()
    delays.sort()
    quartiles = statistics.quantiles(delays, n=4)
    print(f"click -> engine stdin, {len(delays)} moves in {games} games (Tak 6x6, person vs tak): median {statistics.median(delays):.2f} ms, "
          f"quartiles {quartiles[0]:.2f} / {quartiles[2]:.2f} ms, min {delays[0]:.2f} ms, max {delays[-1]:.2f} ms")


def resident_kib(pid):
    values = {}
    with open(f"/proc/{pid}/status") as file:
        for line in file:
            match = re.match(r"(VmRSS|VmHWM):\s+(\d+) kB", line)
            if match:
                values[match.group(1)] = int(match.group(2))
    return values


def memory(args):
    directory = tempfile.mkdtemp(prefix="gui-memory-")
    engine = os.path.join(args.bin, "tak")
    gui = browser.Gui(os.path.join(args.bin, "gui"), [
        "watch", "-game", "tak", "-size", "6", "-engine", f"cmd={engine}", "name=deeper", "nodes=4000",
        "-engine", f"cmd={engine}", "name=shallower", "nodes=1000", "-each", "stderr=/dev/null",
        "-rounds", "200", "-games", "2", "-concurrency", str(args.games)])
    idle = resident_kib(gui.process.pid)["VmRSS"]
    driver = browser.start_browser(os.path.join(directory, "profile"))
    samples = []
    try:
        page = browser.Page(driver, gui.url)
        started = time.time()
        most_live = 0
        while time.time() - started < args.seconds:
            time.sleep(1)
            samples.append(resident_kib(gui.process.pid)["VmRSS"])
            most_live = max(most_live, len(page.attributes("#watch-games .watch-card", "data-number")))
        played = page.text("#watch-standings").split("\n")[0]
        peak = resident_kib(gui.process.pid)["VmHWM"]
    finally:
        driver.quit()
        gui.stop()
    print(f"gui watch, {args.games} games at once (Tak 6x6, nodes=4000 vs 1000), one page watching, {args.seconds} s: "
          f"{played}; up to {most_live} boards live on the page")
    print(f"gui resident memory: {idle / 1024:.1f} MiB before the page connected; during the run median "
          f"{statistics.median(samples) / 1024:.1f} MiB, max sample {max(samples) / 1024:.1f} MiB, peak (VmHWM) {peak / 1024:.1f} MiB")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["latency", "memory"])
    parser.add_argument("--bin", required=True)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    latency(args) if args.what == "latency" else memory(args)


if __name__ == "__main__":
    main()
