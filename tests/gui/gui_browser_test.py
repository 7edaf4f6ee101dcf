#!/usr/bin/env python3
"""The GUI in a real browser (headless Chromium from Debian, driven by Selenium): for each of the
five games a person plays one full game against the engine by clicking the cells the page
highlights, and the result the page shows is checked against the engine's own `query result`
for the moves the page lists. A record written by the arbiter is loaded in the analysis tab and
every position the page draws is compared with the engine's `d` for the same moves. An engine
that crashes or hangs must be shown as such, and the page must go on working.

Exit status 77 (CTest's skip) with a message when Chromium, chromedriver or Selenium is missing.
Screenshots of each board go to --screenshots (the README's pictures come from there).
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77


def skip(message):
    print(f"SKIP: {message}")
    sys.exit(SKIP)


try:
    from selenium import webdriver
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select
except ImportError:
    skip("python3-selenium is not installed (tools/setup.sh test installs it)")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

# Each game as the test plays it: the variant set in the form, and the engine's UGI options that
# give it the same rules when the test asks it for the result and its `d`.
GAMES = {
    "tak": {"form": {"size": "4", "komi": "0"}, "options": {"Size": "4"}},
    "gomoku": {"form": {"size": "9", "rule": "renju"}, "options": {"Width": "9", "Height": "9", "Rule": "renju"}},
    "twixt": {"form": {"size": "8"}, "options": {"BoardSize": "8"}},
    "ur": {"form": {"ruleset": "blitz", "pieces": "2"}, "options": {"Ruleset": "blitz", "Pieces": "2"}},
    "expendibots": {"form": {}, "options": {}},
}
RESULTS = {"p1win": "1-0", "p2win": "0-1", "draw": "1/2-1/2"}


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def engine_session(binary, game, commands):
    """Runs the engine with `ugi`, the game's options and `commands`; returns its output."""
    lines = ["ugi"] + [f"setoption name {k} value {v}" for k, v in GAMES[game]["options"].items()] + commands + ["quit"]
    run = subprocess.run([binary], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60)
    if run.returncode != 0:
        raise Failure(f"{binary} exited with status {run.returncode} on {lines}: stdout ends {run.stdout[-300:]!r}, "
                      f"stderr {run.stderr[-300:]!r}")
    if "response" not in run.stdout and any(c.startswith("query") for c in commands):
        raise Failure(f"{binary} answered no query (status {run.returncode}) to {lines}: stdout ({len(run.stdout)} "
                      f"bytes) ends {run.stdout[-300:]!r}, stderr {run.stderr[-500:]!r}")
    return run.stdout


class Gui:
    """The gui (or `arbiter ... -live 0`, which announces the page of the gui it starts on stderr) on a free port."""
    def __init__(self, gui_binary, arguments, arbiter=False):
        command = [gui_binary] + (arguments + ["-live", "0"] if arbiter else ["--port", "0"] + arguments)
        # The gui's stderr (its engines' warnings, the engines' own stderr) is kept for a failure report.
        self.log = tempfile.NamedTemporaryFile(mode="w+", prefix="gui-stderr-", suffix=".log", delete=False)
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL if arbiter else subprocess.PIPE,
                                        stderr=subprocess.PIPE if arbiter else self.log, text=True)
        line = (self.process.stderr if arbiter else self.process.stdout).readline()
        match = re.search(r"http://([\d.]+):(\d+)/", line)
        if not match:
            self.process.kill()
            raise Failure(f"the gui did not start: {line!r}")
        self.url = f"http://127.0.0.1:{match.group(2)}/"

    def log_tail(self):
        with open(self.log.name) as file:
            return file.read()[-3000:]

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def start_browser(profile):
    if not os.path.exists(CHROMIUM) or not os.path.exists(CHROMEDRIVER):
        skip("chromium and chromium-driver are not installed (tools/setup.sh test installs them)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    # Quiet on a machine without a network: no background fetches, updates or sync.
    for flag in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1300,1100", f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    try:
        return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    except WebDriverException as error:
        skip(f"Chromium could not be started: {error.msg}")


class Page:
    def __init__(self, driver, url):
        self.driver = driver
        driver.get(url)
        self.wait(lambda: self.text("#connection") == "connected", 10, "the page did not connect")

    def find(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def all(self, selector):
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    # The page redraws on every message, so reads go through one script each (never a stale element).
    def text(self, selector):
        return self.driver.execute_script(
            "const e = document.querySelector(arguments[0]); return e ? e.innerText : ''", selector)

    def attributes(self, selector, attribute):
        return self.driver.execute_script(
            "return [...document.querySelectorAll(arguments[0])].map(e => e.getAttribute(arguments[1]))", selector, attribute)

    def wait(self, condition, timeout, message):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                if condition():
                    return
            except StaleElementReferenceException:
                pass
            time.sleep(0.02)
        raise Failure(message)

    def tab(self, name):
        self.find(f'.tab[data-tab="{name}"]').click()

    def errors(self):
        return self.driver.execute_script("return [...document.querySelectorAll('#errors .error')].map(e => e.textContent)")

    def moves(self, panel):
        texts = self.driver.execute_script(
            "return [...document.querySelectorAll(arguments[0])].map(e => e.textContent)", f"#{panel}-moves li.move")
        return [re.sub(r" \{.*\}$", "", text) for text in texts]

    def set_form(self, form, values):
        for name, value in values.items():
            element = self.find(f'#{form} [name="{name}"]')
            if element.tag_name == "select":
                Select(element).select_by_value(value)
            else:
                element.clear()
                element.send_keys(value)

    def click(self, selector):
        """A real mouse click on the element (found again if a redraw replaced it)."""
        for _ in range(5):
            try:
                ActionChains(self.driver).move_to_element(self.find(selector)).click().perform()
                return
            except StaleElementReferenceException:
                time.sleep(0.02)
        raise Failure(f"could not click {selector}")

    def click_cell(self, panel, cell):
        self.click(f'#{panel}-board [data-cell="{cell}"]')

    def type_move(self, panel, move):
        """Types `move` into the panel's move box and plays it."""
        self.find(f"#{panel}-typed input").send_keys(move)
        self.find(f"#{panel}-typed button").click()


def new_game(page, game, players, movetime="", depth="2", tc=""):
    """Engines search to a fixed depth by default: no clock, so a loaded machine cannot make them
    lose on time (a move time of 50 ms has only 50 ms of slack, as in the arbiter)."""
    page.tab("play")
    if not page.find("#play-setup").is_displayed():  # on a phone the form folds away while a game runs
        page.find("#play-setup-toggle").click()
    page.set_form("play-setup", {"game": game, "tc": ""})  # a clock turns the move time field off
    page.driver.execute_script(
        "document.querySelector('#play-setup [name=tc]').dispatchEvent(new Event('input', {bubbles: true}))")
    page.set_form("play-setup", dict(GAMES[game]["form"], movetime=movetime, depth=depth, tc=tc))
    page.set_form("play-setup", {"player0": players[0], "player1": players[1]})
    previous = page.attributes("#play-board", "data-id")[0]
    page.find("#play-new").click()
    page.wait(lambda: page.attributes("#play-board", "data-id")[0] != previous
              and page.attributes(f'#play-board svg[data-game="{game}"]', "data-game"), 10,
              f"{game}: the new game did not appear")


def person_move(page, rng):
    """Makes one move of the person by clicks: cells the page highlights, then a button where the
    clicked cells leave a choice (or a move without cells: swap, pass). Returns False when it is
    not the person's turn."""
    for _ in range(12):
        targets = page.attributes("#play-board .target", "data-overlay")
        choices = page.attributes("#play-choices button", "data-move")
        if not targets and not choices:
            return False
        if choices and (not targets or rng.random() < 0.35):
            page.click(f'#play-choices button[data-move="{rng.choice(choices)}"]')
            return True
        before = len(page.moves("play"))
        page.click_cell("play", rng.choice(targets))
        if len(page.moves("play")) != before or not page.attributes("#play-board .selected", "data-overlay"):
            return True
    return True


def play_to_end(page, rng, what, limit=240):
    """The person plays by clicks until the page shows a result; returns the moves made."""
    started = time.time()
    clicks = 0
    while not page.text("#play-result"):
        check(time.time() - started < limit, f"{what}: the game did not end within {limit} s")
        check(not page.errors(), f"{what}: the page showed errors: {page.errors()}")
        count = len(page.moves("play"))
        if person_move(page, rng):
            clicks += 1
            page.wait(lambda: len(page.moves("play")) != count or page.text("#play-result")
                      or page.attributes("#play-board .selected", "x") or page.attributes("#play-choices button", "x"), 10,
                      f"{what}: a click led nowhere")
        else:
            time.sleep(0.02)
    return clicks


def play_full_game(page, game, engine_binary, rng, screenshots):
    new_game(page, game, ["person", game])
    clicks = play_to_end(page, rng, game)
    shown = page.attributes("#play-result", "data-score")[0]
    moves = page.moves("play")
    output = engine_session(engine_binary, game, ["position startpos moves " + " ".join(moves), "query result"])
    response = re.findall(r"^response (\w+)", output, re.M)
    check(response and response[-1] in RESULTS,
          f"{game}: the page shows {page.text('#play-result')!r} but the rules give no result for its moves {moves}: "
          f"{output[-400:]}")
    check(shown == RESULTS[response[-1]], f"{game}: the page shows {shown}, the engine says {response[-1]} for {moves}")
    # The list ends with the result; a road, a five or a TwixT chain is drawn on the board.
    row = page.attributes("#play-moves li:last-child", "data-result")
    check(row == [shown], f"{game}: the move list's last row is {row}, not the result {shown}")
    reason = page.text("#play-result")
    winning = (page.attributes("#play-board [data-winning]", "data-winning") or [""])[0].split()
    needs_line = (game == "tak" and "road" in reason) or (game == "twixt" and shown != "1/2-1/2") or         (game == "gomoku" and shown != "1/2-1/2" and "forbidden" not in reason)
    if needs_line:
        least = {"tak": 4, "gomoku": 5, "twixt": 2}[game]
        check(len(winning) >= least, f"{game}: the win ({reason}) is drawn through {winning}")
    # Stepping back through the finished game says so, and counts read right.
    page.find("body").send_keys(Keys.ARROW_LEFT)
    page.wait(lambda: page.text("#play-ply").endswith("(game over)"), 5, f"{game}: a step back says {page.text('#play-ply')!r}")
    board_words = page.driver.execute_script("return [...document.querySelectorAll('#play-board text')].map(e => e.textContent).join(' | ')")
    check(not re.search(r"(?<!\d)1 (flats|pieces)", board_words), f"{game}: a plural after 1: {board_words}")
    page.find("body").send_keys(Keys.END)
    print(f"{game}: {len(moves)} plies, {clicks} moves by clicks, result {shown} ({reason}), "
          f"drawn through {' '.join(winning) or 'no line'}")
    if screenshots:
        page.find("#play-board svg").screenshot(os.path.join(screenshots, f"gui-{game}.png"))


# ---- The engine's `d`, read independently of the GUI's code, as {cell: contents}.
def engine_board(game, output):
    if game == "tak":
        board = {}
        for line in output.splitlines():
            match = re.match(r"^\s*(\d+)\s{2}(.*)$", line)
            if not match:
                continue
            row = match.group(1)
            for column, cell in enumerate(match.group(2).split()):
                if cell != ".":
                    # w/b flats, W/B a wall on top, C/D a white/black capstone on top
                    colours = "".join("1" if c in "wWC" else "2" for c in cell)
                    top = "S" if cell[-1] in "WB" else "C" if cell[-1] in "CD" else ""
                    board["abcdefgh"[column] + row] = colours + top
        return board
    fen = re.search(r"^(?:FEN|Fen|position): (.*)$", output, re.M).group(1).split()
    board = {}
    if game == "gomoku":
        rows = fen[0].split("/")
        for r, row in enumerate(rows):
            column = 0
            for token in re.findall(r"\d+|[xo#]", row):
                if token.isdigit():
                    column += int(token)
                    continue
                if token in "xo":
                    board["abcdefghijklmnopqrstuvwxyz"[column] + str(len(rows) - r)] = token
                column += 1
    elif game == "twixt":
        for r, row in enumerate(fen[0].split("/")):
            column = 0
            for token in re.findall(r"\d+|[xo]", row):
                if token.isdigit():
                    column += int(token)
                    continue
                board["abcdefghijklmnopqrstuvwxyz"[column] + str(r + 1)] = token
                column += 1
        if fen[2] != "-":
            for bridge in fen[2].split(","):
                cells = re.findall(r"[a-z]\d+", bridge)
                board["bridge " + "".join(sorted(cells))] = "bridge"
    elif game == "ur":
        for c, column in enumerate(fen[0].split("/")):
            for row, token in enumerate(column):
                if token in "LD":
                    board["ABC"[c] + str(row + 1)] = token
        light, dark = fen[1].split(","), fen[2].split(",")
        board.update({"pool-L": light[0], "off-L": light[1], "pool-D": dark[0], "off-D": dark[1]})
    elif game == "expendibots":
        for r, row in enumerate(fen[0].split("/")):
            column = 0
            for token in row.split(","):
                if token.startswith("x"):
                    column += int(token[1:] or "1")
                    continue
                board["abcdefgh"[column] + str(8 - r)] = token[0] + (token[1:] or "1")
                column += 1
    return board


def page_board(page, game):
    """What the page draws, from the SVG's data attributes, as {cell: contents}."""
    script = {
        "tak": "return [...document.querySelectorAll('#analysis-board [data-stack]')].map(e => [e.closest('[data-cell]').dataset.cell, e.dataset.stack])",
        "gomoku": "return [...document.querySelectorAll('#analysis-board [data-stone]')].map(e => [e.closest('[data-cell]').dataset.cell, e.dataset.stone])",
        "twixt": "return [...document.querySelectorAll('#analysis-board [data-peg]')].map(e => [e.closest('[data-cell]').dataset.cell, e.dataset.peg])"
                 ".concat([...document.querySelectorAll('#analysis-board [data-bridge]')].map(e => ['bridge ' + e.dataset.bridge.match(/[a-z]\\d+/g).sort().join(''), 'bridge']))",
        "ur": "return [...document.querySelectorAll('#analysis-board [data-piece]')].map(e => [e.closest('[data-cell]').dataset.cell, e.dataset.piece])"
              ".concat([...document.querySelectorAll('#analysis-board [data-count]')].map(e => [e.dataset.cell, e.dataset.count]))",
        "expendibots": "return [...document.querySelectorAll('#analysis-board [data-stack]')].map(e => [e.closest('[data-cell]').dataset.cell, e.dataset.stack])",
    }[game]
    return dict(page.driver.execute_script(script))


def record_for(game, arbiter, engine_binary, directory):
    """A short match between two engines (one playing randomly) through the arbiter: its record."""
    path = os.path.join(directory, f"{game}-record.txt")
    variant = {"tak": ["-size", "5", "-komi", "1.5"], "gomoku": ["-size", "9", "-rule", "renju"],
               "twixt": ["-size", "8"], "ur": ["-ruleset", "blitz", "-pieces", "2"], "expendibots": []}[game]
    random_player = {"tak": ["option.Player=random"], "expendibots": ["option.Player=random"],
                     "ur": ["option.Player=random"]}.get(game, [])
    command = [arbiter, "-game", game] + variant + [
        "-engine", f"cmd={engine_binary}", "name=first", "depth=2",
        "-engine", f"cmd={engine_binary}", "name=second", "depth=1"] + random_player + [
        "-each", "stderr=/dev/null", "-rounds", "1", "-games", "1", "-srand", "3", "-pgnout", path]
    subprocess.run(command, capture_output=True, timeout=120, check=True)
    with open(path) as file:
        return file.read()


def check_record(page, game, arbiter, engine_binary, directory, screenshots):
    text = record_for(game, arbiter, engine_binary, directory)
    page.tab("analysis")
    page.set_form("record-form", {"game": game})
    page.driver.execute_script("document.getElementById('record-text').value = arguments[0]", text)
    page.find("#record-load").click()
    page.wait(lambda: page.all(f'#analysis-board svg[data-game="{game}"]') and page.text("#analysis-ply").startswith("0 /"),
              10, f"{game}: the record did not load: {page.errors()}")
    moves = page.moves("analysis")
    check(len(moves) > 0, f"{game}: the record shows no moves")
    variant = {"tak": {"Size": "5", "HalfKomi": "3"}}.get(game)
    options = dict(GAMES[game]["options"], **(variant or {}))
    for ply in range(len(moves) + 1):
        if ply > 0:
            page.find("#analysis-forward").click()
            page.wait(lambda: page.text("#analysis-ply").startswith(f"{ply} /"), 10, f"{game}: no step to ply {ply}")
        commands = [f"setoption name {k} value {v}" for k, v in options.items()]
        output = subprocess.run([engine_binary], input="\n".join(["ugi"] + commands + [
            "position startpos" + (" moves " + " ".join(moves[:ply]) if ply else ""), "d", "quit"]) + "\n",
            capture_output=True, text=True, timeout=30).stdout
        expected = engine_board(game, output)
        shown = page_board(page, game)
        check(shown == expected, f"{game} record, ply {ply}: the page draws {shown}, the engine's d shows {expected}")
    if screenshots:
        page.find("#analysis-board svg").screenshot(os.path.join(screenshots, f"gui-{game}-record.png"))
    print(f"{game}: record of {len(moves)} plies stepped through, every position equal to the engine's d")


def set_up(page, game, fields):
    page.tab("analysis")
    page.set_form("analysis-setup", {"game": game})
    page.set_form("analysis-setup", fields)
    previous = page.attributes("#analysis-board", "data-id")[0]
    page.find("#analysis-setup-button").click()
    page.wait(lambda: page.attributes("#analysis-board", "data-id")[0] != previous, 10, f"no analysis board: {page.errors()}")


def check_set_ups(page, screenshots):
    """Positions set up from text: Tak stacks drawn piece by piece, renju's forbidden points."""
    set_up(page, "tak", {"size": "5", "komi": "0", "position": "x2,12S,x2/x,2121C,x3/x2,21112,x2/x5/1,x3,2 1 10", "moves": ""})
    stacks = page_board(page, "tak")
    check(stacks == {"c5": "12S", "b4": "2121C", "c3": "21112", "a1": "1", "e1": "2"}, f"the Tak stacks drawn: {stacks}")
    layers = page.driver.execute_script("return document.querySelectorAll('#analysis-board [data-stack=\"21112\"] rect').length")
    check(layers >= 5, f"the stack of five shows {layers} parts")
    if screenshots:
        page.find("#analysis-board svg").screenshot(os.path.join(screenshots, "gui-tak-stacks.png"))
    # Black e5 f5 and g6 g7 on 9x9 renju: g5 would be a double three, forbidden to Black.
    set_up(page, "gomoku", {"size": "9", "rule": "renju", "position": "", "moves": "e5 a1 f5 c1 g6 i9 g7 a9"})
    forbidden = page.driver.execute_script(
        "return [...document.querySelectorAll('#analysis-board [data-forbidden]')].map(e => e.closest('[data-cell]').dataset.cell)")
    check("g5" in forbidden, f"renju: g5 is not marked forbidden, the marks are {forbidden}")
    if screenshots:
        page.find("#analysis-board svg").screenshot(os.path.join(screenshots, "gui-gomoku-renju.png"))
    print(f"set-ups: Tak stacks drawn as the TPS says; renju marks {forbidden} forbidden for Black")


def check_analysis(page, screenshots):
    """A position set up from TPS is searched live: info lines, the PV drawn on the board, scores
    in the graph; a move on the board branches the line; Stop stops."""
    page.tab("analysis")
    page.set_form("analysis-setup", {"game": "tak"})
    page.set_form("analysis-setup", {"size": "5", "komi": "0", "position": "2,x4/x5/x2,1,x2/x5/x4,1 2 2", "moves": ""})
    previous = page.attributes("#analysis-board", "data-id")[0]
    page.find("#analysis-setup-button").click()
    page.wait(lambda: page.attributes("#analysis-board", "data-id")[0] != previous, 10, f"no analysis board: {page.errors()}")
    check(page.text("#analysis-position") == "2,x4/x5/x2,1,x2/x5/x4,1 2 2", f"the position shown is {page.text('#analysis-position')}")
    Select(page.find("#analysis-engine")).select_by_value("tak")
    page.find("#analysis-go").click()
    page.wait(lambda: "depth" in page.text("#analysis-info") and page.attributes("#analysis-board .pv-number", "data-pv"), 15,
              f"no live search shown: {page.text('#analysis-info')}")
    # Let it search a moment, so the line shown (and the screenshot) is a deeper one.
    page.wait(lambda: len(page.attributes("#analysis-board .pv-number", "data-pv")) >= 3, 15, "the PV stays short")
    pv = page.attributes("#analysis-board .pv-number", "data-pv")
    cells = set(page.attributes("#analysis-board [data-cell]", "data-cell"))
    check(all(cell in cells for path in pv for cell in path.split()), f"the PV marks cells not on the board: {pv}")
    if screenshots:
        page.find("#tab-analysis .play-area").screenshot(os.path.join(screenshots, "gui-analysis.png"))
    # A move on the board: the first cell the page offers, then its first continuation, until played.
    # Each click waits for the page's answer (a selection, choices or the move listed): a played move
    # comes back from the server, and a second click before it arrives would send a second move.
    def page_state():
        return (tuple(page.moves("analysis")), tuple(page.attributes("#analysis-board .selected", "data-overlay")),
                tuple(page.attributes("#analysis-choices button", "data-move")))
    for _ in range(6):
        if page.moves("analysis"):
            break
        before = page_state()
        targets = page.attributes("#analysis-board .target", "data-overlay")
        choices = page.attributes("#analysis-choices button", "data-move")
        if choices:
            page.click(f'#analysis-choices button[data-move="{choices[0]}"]')
        elif targets:
            page.click_cell("analysis", sorted(targets)[0])
        else:
            time.sleep(0.1)
            continue
        # A click that played leaves no selection and no choices: then only the listed move ends the wait.
        page.wait(lambda: page.moves("analysis") or (page_state() != before and any(page_state()[1:])), 20,
                  "a click on the analysis board changed nothing")
    page.wait(lambda: len(page.moves("analysis")) == 1 and page.text("#analysis-ply").startswith("1 /"), 10,
              "a move on the analysis board did not branch the line")
    page.wait(lambda: int(page.attributes("#analysis-graph svg", "data-points")[0]) >= 1, 15, "no score in the graph")
    page.find("#analysis-stop").click()
    page.wait(lambda: page.attributes("#analysis-stop", "disabled")[0] is not None, 10, "Stop did not stop the search")
    print(f"analysis: live search shown with a PV of {len(pv)} moves drawn, a branch played, stopped")


def check_failing_engines(page):
    """A crashing and a hanging engine are shown as such, and the page goes on working."""
    for name, status, termination in [("crasher", "crashed", "disconnect"), ("hanger", "hung", "time forfeit")]:
        new_game(page, "tak", ["person", name], movetime="200", depth="")
        page.wait(lambda: page.attributes("#play-board .target", "data-overlay"), 10, f"{name}: the person never got the move")
        page.type_move("play", "a1")
        page.wait(lambda: page.text("#play-result"), 15, f"{name}: no result shown")
        page.wait(lambda: page.all(f'#play-players [data-status="{status}"]'), 5,
                  f"{name}: the engine is not shown as {status}: {page.text('#play-players')}")
        print(f"{name}: shown as {status}, result {page.text('#play-result')}")
        check(termination.split()[0] in page.text("#play-result") or status == "hung" and "time" in page.text("#play-result"),
              f"{name}: unexpected result {page.text('#play-result')}")


def clock_ms(page, side):
    text = page.text(f"#play-clock-{side}")
    match = re.match(r"(-?)(\d+):(\d+)\.(\d)", text)
    check(match, f"clock {side} shows {text!r}")
    sign = -1 if match.group(1) else 1
    return sign * (int(match.group(2)) * 60000 + int(match.group(3)) * 1000 + int(match.group(4)) * 100)


def check_clock_game(page, rng):
    """Defect: with a Clock, the engine got `go movetime` and its clock never moved. Now the clock
    rules (the Engine ms field is off) and a whole game runs both clocks down."""
    new_game(page, "tak", ["person", "tak"], movetime="500", depth="2", tc="3:00")
    check(page.attributes('#play-setup [name="movetime"]', "disabled")[0] is not None,
          "with a clock the Engine ms field is still on")
    check(page.text("#play-clock-note") == "engines play on the clock", "no note that engines play on the clock")
    play_to_end(page, rng, "tak on the clock")
    person, engine = clock_ms(page, 0), clock_ms(page, 1)
    check(person < 180000 and engine < 180000, f"the clocks did not both run down: {person} and {engine} ms")
    check("time" not in page.text("#play-result"), f"a loss on time at 3:00: {page.text('#play-result')}")
    print(f"clock: a game at 3:00 to {page.text('#play-result')}, clocks {page.text('#play-clock-0')} and "
          f"{page.text('#play-clock-1')}")


def check_slow_engine(page):
    """Defect: without a clock, an engine that overran a fixed move time by a little lost on time.
    A foreign engine (slow_tei.py) that answers 250 ms past a 100 ms move time plays on."""
    new_game(page, "tak", ["person", "slowtak"], movetime="100", depth="")
    for ply in range(3):
        page.wait(lambda: page.attributes("#play-board .target", "data-overlay") or page.text("#play-result"), 20,
                  "slowtak: the person never got the move")
        check(not page.text("#play-result"), f"slowtak: the game ended: {page.text('#play-result')}")
        count = len(page.moves("play"))
        person_move(page, random.Random(ply))
        page.wait(lambda: len(page.moves("play")) >= count + 2 or page.text("#play-result"), 20,
                  "slowtak: no answer")
    check(not page.text("#play-result"), f"slowtak lost: {page.text('#play-result')}")
    print("slow engine: 250 ms past a 100 ms move time, three answers, no loss on time")


def check_failed_start(page):
    """Defect: an engine that cannot start showed only a red badge. The reason is on the page."""
    new_game(page, "tak", ["person", "missing"], movetime="200", depth="")
    page.wait(lambda: page.all('#play-players [data-status="failed"]'), 10,
              f"the missing engine is not shown as failed: {page.text('#play-players')}")
    reason = page.text("#play-reason-1")
    check("/nonexistent/engine" in reason, f"the failed engine's reason is not shown: {reason!r}")
    print(f"failed engine: shown with its reason {reason!r}")


def error_covers(page, selectors):
    """Whether the first error shown overlaps any of the elements `selectors` finds."""
    return page.driver.execute_script("""
        const a = document.querySelector('#errors .error').getBoundingClientRect();
        return [...document.querySelectorAll(arguments[0])].some((e) => {
          const b = e.getBoundingClientRect();
          return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom; });""", selectors)


def check_bad_load(page):
    """Defect: after a good record, a bad one left a dead board. Now the old game stays and works,
    and the error can be dismissed and covers none of the controls."""
    page.tab("analysis")
    page.find("#record-text").clear()
    page.find("#record-text").send_keys('[Size "4"]\n\n1. a1 d4 2. b2 c3 *\n')
    page.set_form("record-form", {"game": "tak", "index": "1"})
    previous = page.attributes("#analysis-board", "data-id")[0]
    page.find("#record-load").click()
    page.wait(lambda: page.attributes("#analysis-board", "data-id")[0] != previous, 10, "the good record did not load")
    good = page.attributes("#analysis-board", "data-id")[0]
    page.find("#record-text").clear()
    page.find("#record-text").send_keys("hello world")
    page.find("#record-load").click()
    page.wait(lambda: page.errors(), 10, "no error for a bad record")
    check(not error_covers(page, "#record-load, #analysis-setup-button, #analysis-go"), "the error covers a control")
    page.find("#errors .error-close").click()
    page.wait(lambda: not page.errors(), 3, "the error could not be dismissed")
    check(page.attributes("#analysis-board", "data-id")[0] == good, "the old board was replaced after a bad record")
    targets = page.attributes("#analysis-board .target", "data-overlay")
    check(targets, "the old board offers no moves after a bad record")
    page.click_cell("analysis", "a2")  # at the start: a variation beside the record's 1. a1
    page.wait(lambda: page.text("#analysis-ply") == "1 / 1", 10, "a click on the old board does nothing after a bad record")
    page.find("#analysis-go").click()
    page.wait(lambda: page.text("#analysis-info"), 15, "Analyse does nothing after a bad record")
    page.find("#analysis-stop").click()
    print("bad record: error shown beside the controls and dismissed; the old game still plays and analyses")


def check_renju_confirm(page):
    """Defect: renju's forbidden point showed a legal-move ring and one click played it (a loss).
    Now it has no ring, and it takes a second click, after a warning."""
    set_up(page, "gomoku", {"size": "9", "rule": "renju", "position": "", "moves": "e5 a1 f5 c1 g6 i9 g7 a9"})
    targets = page.attributes("#analysis-board .target", "data-overlay")
    rings = page.driver.execute_script(
        "return [...document.querySelectorAll('#analysis-board .target')].length")
    check(rings > 0, "renju: no legal-move rings at all")
    at_g5 = page.driver.execute_script("""
        const hit = document.querySelector('#analysis-board [data-cell="g5"] circle').getBoundingClientRect();
        return [...document.querySelectorAll('#analysis-board .target')].some((t) => {
          const r = t.getBoundingClientRect();
          return Math.abs((r.left + r.right) / 2 - (hit.left + hit.right) / 2) < 2 && Math.abs((r.top + r.bottom) / 2 - (hit.top + hit.bottom) / 2) < 2; });""")
    check(not at_g5, "renju: the forbidden g5 has a legal-move ring")
    before = len(page.moves("analysis"))
    page.click_cell("analysis", "g5")
    page.wait(lambda: "forbidden" in page.text("#analysis-warning"), 5, "renju: no warning on the forbidden point")
    check(len(page.moves("analysis")) == before, "renju: one click played the forbidden point")
    page.click_cell("analysis", "g5")
    page.wait(lambda: len(page.moves("analysis")) == before + 1, 10, "renju: the second click did not play it")
    print(f"renju: g5 without a ring, warned on the first click, played on the second: {page.text('#analysis-result')}")


def check_reconnect(page, rng):
    """Defect: a dropped connection or a reload lost the game. Now the page resumes it: a move
    after the drop and after the reload reaches the same game, and New game still works."""
    new_game(page, "tak", ["person", "tak"], movetime="", depth="2")
    game_id = page.attributes("#play-board", "data-id")[0]

    def move_and_answer(what):
        page.wait(lambda: page.attributes("#play-board .target", "data-overlay"), 15, f"{what}: no move offered")
        count = len(page.moves("play"))
        for _ in range(5):
            if len(page.moves("play")) > count:
                break
            person_move(page, rng)
        page.wait(lambda: len(page.moves("play")) >= count + 2 or page.text("#play-result"), 15,
                  f"{what}: the move did not reach the game or got no answer: {page.errors()}")

    move_and_answer("before the drop")
    before = page.moves("play")
    page.driver.execute_script("socket.close()")
    page.wait(lambda: page.text("#connection") != "connected", 5, "the connection did not drop")
    page.wait(lambda: page.text("#connection") == "connected", 15, "the page did not reconnect")
    page.wait(lambda: page.moves("play")[:len(before)] == before, 10, "after the drop the game's moves are gone")
    check(page.attributes("#play-board", "data-id")[0] == game_id, "after the drop the page shows another game")
    move_and_answer("after the drop")
    before = page.moves("play")
    page.driver.refresh()
    page.wait(lambda: page.text("#connection") == "connected", 15, "the page did not come back after a reload")
    page.wait(lambda: page.attributes("#play-board", "data-id")[0] == game_id and page.moves("play") == before, 15,
              "after a reload the game is not back")
    move_and_answer("after the reload")
    plies = len(page.moves("play"))
    check(not page.errors(), f"errors after the drop and the reload: {page.errors()}")
    new_game(page, "tak", ["person", "tak"], movetime="", depth="2")
    check(not page.errors(), f"New game after a reload: {page.errors()}")
    print(f"reconnect: game {game_id} resumed after a dropped connection and after a reload ({plies} plies), "
          "and New game works")


def check_record_tools(page, rng):
    """A game played on the Play tab is saved as PTN (the file the Save button offers), and that
    file replays in the analysis tab to the same moves; "Analyse this game" does it in one click.
    The move list is numbered by moves, two plies a row; the board flips (button and key f)."""
    new_game(page, "tak", ["person", "tak"], movetime="", depth="1")
    play_to_end(page, rng, "the game to save", 120)
    played = page.moves("play")
    # The file Save offers: the page's own download link, its blob read back.
    page.driver.execute_script("""
        window.savedBlob = null;
        const create = URL.createObjectURL;
        URL.createObjectURL = (blob) => { window.savedBlob = blob; return create(blob); };""")
    page.find("#play-save").click()
    saved = page.driver.execute_async_script("const done = arguments[0]; window.savedBlob.text().then(done);")
    check(saved.startswith("[") and "[Result " in saved and "1. " in saved, f"Save gave no PTN: {saved[:200]!r}")
    rows = page.driver.execute_script(
        "return [...document.querySelectorAll('#play-moves li')].slice(0, 2).map(e => e.getBoundingClientRect().top)")
    check(len(rows) < 2 or abs(rows[0] - rows[1]) < 2, f"the first two plies are not on one numbered row: {rows}")
    page.tab("analysis")
    page.find("#record-text").clear()
    page.driver.execute_script("document.querySelector('#record-text').value = arguments[0]", saved)
    page.set_form("record-form", {"game": "tak", "index": "1"})
    previous = page.attributes("#analysis-board", "data-id")[0]
    page.find("#record-load").click()
    page.wait(lambda: page.attributes("#analysis-board", "data-id")[0] != previous, 10, f"the saved PTN did not load: {page.errors()}")
    check(page.moves("analysis") == played, f"the saved PTN replays {page.moves('analysis')}, the game was {played}")
    page.tab("play")
    previous = page.attributes("#analysis-board", "data-id")[0]
    page.find("#play-analyse").click()
    page.wait(lambda: page.attributes("#analysis-board", "data-id")[0] != previous and not page.find("#tab-analysis").get_attribute("hidden"),
              10, "Analyse this game did nothing")
    check(page.moves("analysis") == played, "Analyse this game shows other moves")
    check(page.text("#analysis-ply") == f"{len(played)} / {len(played)}",
          f"Analyse this game opened at {page.text('#analysis-ply')}, not at its last move")
    page.find("#analysis-flip").click()
    check(page.attributes("#analysis-board [data-flipped]", "data-flipped"), "Flip did not turn the board")
    page.find("body").send_keys("f")
    check(not page.attributes("#analysis-board [data-flipped]", "data-flipped"), "the key f did not turn it back")
    page.find("body").send_keys(Keys.HOME)
    page.wait(lambda: page.text("#analysis-ply").startswith("0 /"), 5, "Home did not go to the start")
    page.find("body").send_keys(Keys.END)
    page.wait(lambda: page.text("#analysis-ply") == f"{len(played)} / {len(played)}", 5, "End did not go to the end")
    print(f"record: {len(played)} plies saved as PTN, replayed in the analysis tab; flip, Home and End work")


def check_play_steps(page, rng):
    """Stepping back and forward through a game in Play while it goes on: the board of each ply,
    no moves offered there, and "live" brings the game back."""
    new_game(page, "tak", ["person", "tak"], movetime="", depth="1")
    for _ in range(3):
        page.wait(lambda: page.attributes("#play-board .target", "data-overlay"), 10, "steps: no move offered")
        count = len(page.moves("play"))
        while len(page.moves("play")) == count:
            person_move(page, rng)
        page.wait(lambda: len(page.moves("play")) >= count + 2, 10, "steps: no answer")
    page.wait(lambda: page.attributes("#play-board .target", "data-overlay"), 10, "steps: no move offered")
    plies = len(page.moves("play"))
    page.find("#play-first").click()
    page.wait(lambda: page.text("#play-ply").startswith(f"0 / {plies}"), 5, f"|< did not go to the start: {page.text('#play-ply')}")
    stacks = lambda: page.attributes("#play-board [data-stack]", "data-stack")
    check(not stacks() and not page.attributes("#play-board .target", "data-overlay"),
          "the start shows pieces or offers moves")
    page.find("#play-forward").click()
    page.wait(lambda: page.text("#play-ply").startswith(f"1 / {plies}"), 5, "> did not step on")
    check(len(stacks()) == 1, f"ply 1 shows {stacks()}")
    page.find("body").send_keys(Keys.ARROW_RIGHT)
    page.wait(lambda: page.text("#play-ply").startswith(f"2 / {plies}"), 5, "the right arrow did not step on")
    page.find("#play-live").click()
    page.wait(lambda: page.text("#play-ply") == f"{plies} / {plies}" and page.attributes("#play-board .target", "data-overlay"),
              5, "live did not bring the game back")
    print(f"play steps: plies 0, 1 and 2 of {plies} shown while the game waits, then back to it")


def check_pbrain_engine(page, rng):
    """A foreign pbrain engine (slow_pbrain.py: Rapfi's status lines, late answers, no infinite
    search): its moves come, and its evaluations reach the info line and the score graph."""
    new_game(page, "gomoku", ["person", "rapfi-like"], movetime="300", depth="")
    for _ in range(3):
        page.wait(lambda: page.attributes("#play-board .target", "data-overlay") or page.text("#play-result"), 20,
                  "rapfi-like: the person never got the move")
        count = len(page.moves("play"))
        while len(page.moves("play")) == count and not page.text("#play-result"):
            person_move(page, rng)
        page.wait(lambda: len(page.moves("play")) >= count + 2 or page.text("#play-result"), 20, "rapfi-like: no answer")
    check(not page.text("#play-result"), f"rapfi-like: the game ended: {page.text('#play-result')}")
    info = page.text("#play-info")
    check("depth 11/24" in info and "for White" in info, f"rapfi-like: its status is not on the info line: {info!r}")
    points = int(page.attributes("#play-graph svg", "data-points")[0])
    check(points >= 3, f"rapfi-like: {points} of its evaluations in the graph")
    print(f"pbrain engine: three late answers, its evaluations on the info line ({info[:60]}…) and {points} in the graph")


def analysis_list(page):
    """The analysis move list as shown: each cell's text, and the variation rows' text."""
    return page.driver.execute_script(
        "return [...document.querySelectorAll('#analysis-moves li')].map(e => e.textContent.trim())")


def check_variations(page, screenshots):
    """Missing: a move at ply 2 of 4 deleted plies 3 and 4. Now it starts a variation beside
    them, shown in brackets; the variation can become the main line, and be deleted."""
    set_up(page, "tak", {"size": "5", "komi": "0", "position": "", "moves": "a1 e5 b2 d4"})
    page.wait(lambda: page.text("#analysis-ply") == "4 / 4", 10, "the set-up is not shown at its end")
    e5 = page.driver.execute_script(
        "return [...document.querySelectorAll('#analysis-moves li.move')].find(e => e.textContent === 'e5').dataset.node")
    page.click(f'#analysis-moves [data-node="{e5}"]')
    page.wait(lambda: page.text("#analysis-ply") == "2 / 4", 10, f"a click on e5 did not show it: {page.text('#analysis-ply')}")
    page.click_cell("analysis", "c3")
    page.wait(lambda: page.text("#analysis-ply") == "3 / 3", 10, f"c3 was not played: {page.text('#analysis-ply')}")
    check(page.moves("analysis") == ["a1", "e5", "b2", "d4"], f"the main line changed: {page.moves('analysis')}")
    variations = lambda: [text for text in analysis_list(page) if text.startswith("(")]
    check(variations() == ["(2. c3)"], f"the variation is not shown after b2: {analysis_list(page)}")
    check(page.attributes("#analysis-moves .variation .current", "data-node"), "the variation's move is not the current one")
    page.click("#analysis-promote")
    page.wait(lambda: page.moves("analysis") == ["a1", "e5", "c3"], 10, f"Main line did not promote c3: {page.moves('analysis')}")
    check(variations() == ["(2. b2 d4)"], f"the old line is not the variation now: {analysis_list(page)}")
    if screenshots:
        page.find("#tab-analysis .play-area").screenshot(os.path.join(screenshots, "gui-variations.png"))
    page.click("#analysis-moves .variation .move")  # b2
    page.wait(lambda: page.text("#analysis-ply") == "3 / 4", 10, f"a click on the variation's b2: {page.text('#analysis-ply')}")
    page.find("body").send_keys(Keys.ARROW_RIGHT)
    page.wait(lambda: page.text("#analysis-ply") == "4 / 4", 10, "the right arrow did not follow the variation")
    page.click("#analysis-delete")  # d4
    page.wait(lambda: page.text("#analysis-ply") == "3 / 3" and variations() == ["(2. b2)"], 10,
              f"Delete of d4: {page.text('#analysis-ply')} {analysis_list(page)}")
    page.click("#analysis-delete")  # b2
    page.wait(lambda: page.text("#analysis-ply") == "2 / 3" and not variations(), 10,
              f"Delete of b2: {page.text('#analysis-ply')} {analysis_list(page)}")
    check(page.moves("analysis") == ["a1", "e5", "c3"], f"after Delete: {page.moves('analysis')}")
    check(page.attributes("#analysis-promote", "disabled")[0] is not None, "Main line is on for a move of the main line")
    # The second player first (a set-up with Black to move): the first row is "1. … c3".
    set_up(page, "tak", {"size": "5", "komi": "0", "position": "2,x4/x5/x5/x5/x4,1 2 2", "moves": "c3 d3"})
    cells = analysis_list(page)
    check(cells[:5] == ["1.", "…", "c3", "2.", "d3"], f"a line from Black's move is numbered {cells[:5]}")
    print("variations: a move inside the line kept the rest as a variation, promoted, stepped, deleted; "
          "Black-first numbering 1. … c3")


def check_pbrain_analysis(page):
    """Missing: pbrain engines could not analyse. The foreign pbrain fake (no infinite search)
    analyses by repeated searches; its Rapfi-style PV is drawn; a move stops it at once."""
    set_up(page, "gomoku", {"size": "15", "rule": "freestyle", "position": "", "moves": "h8 h9"})
    Select(page.find("#analysis-engine")).select_by_value("rapfi-like")
    page.find("#analysis-go").click()
    page.wait(lambda: re.search(r"best [a-o]\d+ after 0.5 s", page.text("#analysis-info")), 20,
              f"no finished search shown: {page.text('#analysis-info')} {page.errors()}")
    info = page.text("#analysis-info")
    check("depth 11/24" in info, f"the pbrain status is not shown: {info!r}")
    pv = page.attributes("#analysis-board .pv-number", "data-pv")
    check(pv, "no PV drawn from the pbrain engine's labels")
    occupied = set(page.attributes("#analysis-board [data-stone]", "data-stone"))
    page.wait(lambda: "after 1 s" in page.text("#analysis-info"), 20, f"no second, longer search: {page.text('#analysis-info')}")
    started = time.monotonic()
    targets = sorted(page.attributes("#analysis-board .target", "data-overlay"))
    page.click_cell("analysis", targets[0])
    page.wait(lambda: page.text("#analysis-ply").startswith("3 /"), 10, "the move was not played during the search")
    waited = time.monotonic() - started
    check(waited < 1.8, f"the move waited {waited:.1f} s for the pbrain search to end")
    page.wait(lambda: "after 0.5 s" in page.text("#analysis-info"), 20, "the search did not go on after the move")
    check(page.attributes("#analysis-stop", "disabled")[0] is None, "Stop is off while the pbrain engine analyses")
    page.find("#analysis-stop").click()
    page.wait(lambda: page.attributes("#analysis-stop", "disabled")[0] is not None, 10, "Stop did not stop the pbrain engine")
    print(f"pbrain analysis: searches of 0.5 s and 1 s shown with a PV of {len(pv)}, a move taken in {waited:.1f} s, stopped")


def check_engine_options(page, relay_log, screenshots):
    """Missing: engine options on the page. The second player's options come from what it
    declares; a changed value reaches the engine, and the analysis engine has its own."""
    page.tab("play")
    page.set_form("play-setup", {"game": "tak"})
    Select(page.find('#play-setup [name="player0"]')).select_by_value("person")
    Select(page.find('#play-setup [name="player1"]')).select_by_value("slowtak")
    page.wait(lambda: page.all('#play-options [data-seat="seat1"] [data-option="Hash"]'), 10,
              f"the slowtak's options are not shown: {page.text('#play-options')}")
    check(not page.all('#play-options [data-option="HalfKomi"]'), "a rule option is offered on the page")
    check(not page.all('#play-options [data-option="EvalFile"]'), "a file option is offered on the page")
    page.find("#play-options summary").click()
    hash_field = page.find('#play-options [data-seat="seat1"] [data-option="Hash"]')
    check(int(hash_field.get_attribute("max")) < 65536, "Hash is offered beyond the machine's memory")
    hash_field.clear()
    hash_field.send_keys("48")
    Select(page.find('#play-options [data-seat="seat1"] [data-option="Player"]')).select_by_value("mcts")
    if screenshots:
        page.find("#play-setup").screenshot(os.path.join(screenshots, "gui-engine-options.png"))
    open(relay_log, "w").close()
    new_game(page, "tak", ["person", "slowtak"], movetime="200", depth="")
    # The engine gets them one line after the other: wait for both.
    page.wait(lambda: all(line in open(relay_log).read() for line in
                          ["setoption name Hash value 48", "setoption name Player value mcts"]), 10,
              f"Hash 48 and Player mcts did not reach the engine: {open(relay_log).read()[:500]!r}")
    check("setoption name NullMove" not in open(relay_log).read(), "an option left alone was sent")
    page.find("#play-options summary").click()
    page.tab("analysis")
    set_up(page, "tak", {"size": "5", "komi": "0", "position": "", "moves": "a1 e5"})
    Select(page.find("#analysis-engine")).select_by_value("slowtak")
    page.wait(lambda: page.all('#analysis-options [data-option="Hash"]'), 10, "the analysis engine's options are not shown")
    print("engine options: declared options shown (no rule or file options), Hash 48 and Player mcts reached the engine")


def check_quiet_board(page):
    """Gomoku 15x15: before a move, no legal-move dot shows; the one under the pointer does."""
    new_game(page, "gomoku", ["person", "gomoku"], movetime="", depth="1")
    page.find("#play-setup")  # the new game is drawn
    page.wait(lambda: page.attributes("#play-board .target", "data-overlay"), 10, "gomoku: no legal moves")
    visible = page.driver.execute_script(
        "return [...document.querySelectorAll('#play-board .target')].filter(t => getComputedStyle(t).visibility !== 'hidden').length")
    check(visible == 0, f"{visible} legal-move dots show before the pointer is on a cell")
    ActionChains(page.driver).move_to_element(page.find('#play-board [data-cell="e5"]')).perform()
    page.wait(lambda: page.driver.execute_script(
        "return [...document.querySelectorAll('#play-board .target')].filter(t => getComputedStyle(t).visibility !== 'hidden')"
        ".map(t => t.dataset.overlay).join(',')") == "e5", 5, "the dot under the pointer does not show")
    print("quiet board: no dots until the pointer is on a legal cell, then that one")


def check_layouts(page, games, rng, screenshots):
    """At 1400x1000 the buttons under the board are in view; at 390x900 (a phone) nothing scrolls
    sideways and the clocks sit above the board. A picture of each game at both sizes."""
    driver = page.driver
    try:
        for width, height, name in [(1400, 1000, "desktop"), (390, 900, "phone")]:
            driver.set_window_size(width, height)
            for game in games:
                new_game(page, game, ["person", game], movetime="", depth="1", tc="5:00")
                for _ in range(3):
                    page.wait(lambda: page.attributes("#play-board .target", "data-overlay")
                              or page.attributes("#play-choices button", "data-move") or page.text("#play-result"), 10,
                              f"{game} {name}: the person never got the move")
                    count = len(page.moves("play"))
                    if person_move(page, rng):
                        page.wait(lambda: len(page.moves("play")) > count + 1 or page.text("#play-result")
                                  or page.attributes("#play-board .selected", "x"), 10, f"{game} {name}: no answer")
                driver.execute_script("window.scrollTo(0, 0)")
                wide = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
                check(wide <= 0, f"{game} at {width}px: the page scrolls sideways by {wide}px")
                if name == "desktop":
                    bottom = driver.execute_script("return document.querySelector('#play-undo').getBoundingClientRect().bottom")
                    inner = driver.execute_script("return window.innerHeight")
                    check(bottom <= inner, f"{game} at 1400x1000: Undo is below the fold ({bottom} > {inner})")
                else:
                    clocks, board = driver.execute_script(
                        "return [document.querySelector('#play-players').getBoundingClientRect().top,"
                        " document.querySelector('#play-board').getBoundingClientRect().top]")
                    check(clocks < board, f"{game} on a phone: the clocks are below the board")
                    # The info line and the moves directly under the board, above its buttons;
                    # the set-up form folded away behind its button.
                    order = driver.execute_script("""const top = (s) => document.querySelector(s).getBoundingClientRect().top;
                        return [top('#play-board') + document.querySelector('#play-board').getBoundingClientRect().height,
                                top('#play-info'), top('#play-moves'), top('#play-typed')];""")
                    check(order[0] <= order[1] <= order[3] and order[2] <= order[3],
                          f"{game} on a phone: board bottom, info, moves, move box at {order}")
                    check(not page.find("#play-setup").is_displayed() and page.find("#play-setup-toggle").is_displayed(),
                          f"{game} on a phone: the set-up form does not fold away once the game runs")
                if screenshots:
                    driver.save_screenshot(os.path.join(screenshots, f"gui-{game}-{name}.png"))
            page.tab("analysis")
            wide = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
            check(wide <= 0, f"the analysis tab at {width}px scrolls sideways by {wide}px")
            page.tab("play")
    finally:
        driver.set_window_size(1300, 1100)
    print(f"layouts: {', '.join(games)} at 1400x1000 (Undo in view) and 390x900 (no sideways scroll, clocks on top)")


def check_watch(driver, gui_binary, directory, screenshots):
    """`gui watch <arbiter flags>`: the running games live, then the standings as the games end,
    equal to what the arbiter writes in its results file for the same match."""
    results = os.path.join(directory, "watch.json")
    engine = shutil.which("tak", path=os.path.dirname(gui_binary)) or os.path.join(os.path.dirname(gui_binary), "tak")
    watch = Gui(gui_binary, ["watch", "-game", "tak", "-size", "5",
                             "-engine", f"cmd={engine}", "name=alphabeta",
                             # Two searching players, so the games last long enough (tens of
                             # seconds) for the page to see both running even on a loaded machine.
                             "-engine", f"cmd={engine}", "name=mcts", "option.Player=mcts",
                             "-each", "tc=6+0.1", "stderr=/dev/null", "-rounds", "2", "-games", "2",
                             "-concurrency", "2", "-jsonout", results])
    try:
        page = Page(driver, watch.url)
        page.wait(lambda: len(page.attributes("#watch-games .watch-card svg", "data-game")) >= 2, 30, "no live games shown")
        page.wait(lambda: all(int(p) >= 6 for p in page.driver.execute_script(
            "return [...document.querySelectorAll('.watch-heading')].map(e => e.textContent.match(/ply (\\d+)/)[1])")), 30,
            "the live games do not advance")
        if screenshots:
            page.find("#tab-watch").screenshot(os.path.join(screenshots, "gui-watch.png"))
        page.wait(lambda: "match over" in page.text("#watch-standings"), 120, "the match did not end on the page")
        cells = page.driver.execute_script(
            "return [...document.querySelectorAll('#watch-standings table.pairs tr[data-pair] td')].map(e => e.textContent)")
        import json
        with open(results) as file:
            summary = json.load(file)["summary"]["pairs"][0]
        expected = [str(summary["wins"]), str(summary["losses"]), str(summary["draws"])]
        check(cells[1:4] == expected, f"the page shows W/L/D {cells[1:4]}, the results file {expected}")
        check(cells[9] == "[" + ", ".join(map(str, summary["pentanomial"])) + "]",
              f"the page shows Ptnml {cells[9]}, the results file {summary['pentanomial']}")
        check(not page.errors(), f"the page showed errors: {page.errors()}")
        check("± 0.0" not in " ".join(cells), f"an error bar of 0.0 (undefined) is shown: {cells}")
        columns = page.driver.execute_script("return getComputedStyle(document.querySelector('.finished-games')).columnCount")
        check(columns in ("auto", "1"), f"the finished-games list has {columns} columns")
        # Finished games stay on show, and each opens in the analysis tab.
        time.sleep(4)
        check(page.all("#watch-games .watch-card"), "the finished games' boards vanished")
        to_move = page.driver.execute_script("return document.querySelectorAll('#watch-games .watch-card .player.to-move').length")
        check(to_move == 0, f"finished boards show a side to move ({to_move})")
        titles = page.driver.execute_script("return [...document.querySelectorAll('#watch-games title')].map(e => e.textContent)")
        check(titles and all(t.endswith(". ") for t in titles),
              f"the stacks' descriptions run together: {titles[:3]}")
        first = page.driver.execute_script(
            "return document.querySelector('.finished-games li[data-game-number]').dataset.gameNumber")
        page.click(f'.finished-games li[data-game-number="{first}"]')
        page.wait(lambda: not page.find("#tab-analysis").get_attribute("hidden") and page.moves("analysis"), 10,
                  f"a finished game did not open in the analysis tab: {page.errors()}")
        with open(results) as file:
            games = json.load(file)["games"]
        record = next(g for g in games if g["number"] == int(first))
        check(len(page.moves("analysis")) == record["plies"],
              f"game {first} opened with {len(page.moves('analysis'))} plies, the results file has {record['plies']}")
        page.tab("watch")
        print(f"watch: live boards shown; standings {cells[0]} W/L/D {'/'.join(expected)}, Ptnml {cells[9]}, "
              f"Elo {cells[5]} as in the results file; finished boards stay; game {first} opens in the analysis tab")
    finally:
        watch.stop()
    # The same page from the arbiter itself: arbiter <flags> -live PORT starts the gui beside it
    # (gui watch --feed -) and hands it the match's live feed.
    arbiter = Gui(os.path.join(os.path.dirname(gui_binary), "arbiter"), [
        "-game", "ur", "-engine", f"cmd={os.path.join(os.path.dirname(gui_binary), 'ur')}", "name=expectimax",
        "-engine", f"cmd={os.path.join(os.path.dirname(gui_binary), 'ur')}", "name=random", "option.Player=random",
        "-each", "st=0.05", "stderr=/dev/null", "-rounds", "1", "-games", "2"], arbiter=True)
    try:
        page = Page(driver, arbiter.url)
        page.wait(lambda: page.attributes('#watch-games .watch-card svg[data-game="ur"]', "data-game"), 20,
                  "arbiter -live: no live game shown")
        print("arbiter -live: the match's Ur games shown live")
    finally:
        arbiter.stop()


# ---- The rough edges a ptn.ninja or lichess user trips over (each check names its item).

def in_view(page, selector):
    """Whether the element is inside the window (the page area a 1400x1000 window leaves) with
    the page scrolled to its top, as it opens."""
    return page.driver.execute_script("""
        window.scrollTo(0, 0);
        const e = document.querySelector(arguments[0]);
        if (!e || !e.getClientRects().length) return false;
        const r = e.getBoundingClientRect();
        return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;""", selector)


def within_list(page, list_selector, item_selector):
    """Whether the item is inside the visible part of its scrolling list."""
    return page.driver.execute_script("""
        const list = document.querySelector(arguments[0]), item = list && list.querySelector(arguments[1]);
        if (!item) return false;
        const l = list.getBoundingClientRect(), r = item.getBoundingClientRect();
        return r.top >= l.top - 1 && r.bottom <= l.bottom + 1;""", list_selector, item_selector)


def checkerboard_tak_game(size):
    """Placements filling a size x size Tak board as a checkerboard: no road, a full board, and
    so a game of size*size plies ending by flats."""
    squares = {0: [], 1: []}
    for row in range(size):
        for column in range(size):
            squares[(row + column) % 2].append("abcdefgh"[column] + str(row + 1))
    moves = []
    for ply in range(size * size):
        # The first two plies place the opponent's flat; then each side its own.
        colour = (1 - ply % 2) if ply < 2 else ply % 2
        moves.append(squares[colour].pop(0))
    return moves


def check_empty_page(driver, gui_url, screenshots):
    """Item 8: before any game the page shows the chosen game's board and a one-line hint, and no
    buttons that need a game (the record tools floated alone)."""
    try:
        for width, height, name in [(1400, 1000, "desktop"), (390, 900, "phone")]:
            driver.set_window_size(width, height)
            page = Page(driver, gui_url)
            page.wait(lambda: page.attributes('#play-board svg[data-game="tak"]', "data-game"), 10,
                      "the empty page shows no board")
            check(page.find("#play-hint").is_displayed(), "the empty page has no hint")
            shown = [s for s in ["#play-record-tools", "#play-save", "#play-undo", "#play-first", "#play-kinds button"]
                     if page.all(s) and page.find(s).is_displayed()]
            check(not shown, f"the empty page shows buttons that need a game: {shown}")
            page.set_form("play-setup", {"game": "gomoku"})
            page.wait(lambda: page.attributes('#play-board svg[data-game="gomoku"]', "data-game"), 10,
                      "the empty page's board does not follow the game chosen")
            page.set_form("play-setup", {"game": "tak"})
            page.wait(lambda: page.attributes('#play-board svg[data-game="tak"]', "data-game"), 10,
                      "the empty page's board does not come back to tak")
            # f turns the empty page's board too, and back.
            for turned in [True, False]:
                ActionChains(driver).send_keys("f").perform()
                page.wait(lambda: bool(page.attributes("#play-board [data-flipped]", "data-flipped")) == turned, 10,
                          f"f did not turn the empty page's board {'over' if turned else 'back'}")
            if screenshots:
                driver.save_screenshot(os.path.join(screenshots, f"gui-empty-{name}.png"))
    finally:
        driver.set_window_size(1300, 1100)
    print("empty page: the form's board and a hint, no buttons that need a game, f turns the board, "
          "at 1400x1000 and 390x900")


def check_keys_to_board(page):
    """Item 1: after a choice from the Engine dropdown, arrows, Home and End step the board; the
    dropdown keeps its choice."""
    set_up(page, "tak", {"size": "5", "komi": "0", "position": "", "moves": "a1 e5 b2 d4"})
    page.wait(lambda: page.text("#analysis-ply") == "4 / 4", 10, "the set-up is not shown at its end")
    Select(page.find("#analysis-engine")).select_by_value("tak")
    focused = page.driver.execute_script("return document.activeElement.tagName")
    check(focused != "SELECT", "the Engine dropdown keeps the focus after a choice")
    for key, expected in [(Keys.ARROW_LEFT, "3 / 4"), (Keys.HOME, "0 / 4"), (Keys.ARROW_RIGHT, "1 / 4"), (Keys.END, "4 / 4")]:
        ActionChains(page.driver).send_keys(key).perform()
        page.wait(lambda: page.text("#analysis-ply") == expected, 5,
                  f"a key after the Engine dropdown did not step the board to {expected}: {page.text('#analysis-ply')}")
        check(page.find("#analysis-engine").get_attribute("value") == "tak", "a board key changed the engine")
    print("keys: after the Engine dropdown, Left, Home, Right and End step the board; the engine stays")


def check_move_list(page):
    """Item 2: a 64-ply game's list keeps the move shown in view at both ends and ends with its
    result (a full board, a draw by flats)."""
    moves = checkerboard_tak_game(8)
    set_up(page, "tak", {"size": "8", "komi": "0", "position": "", "moves": " ".join(moves)})
    page.wait(lambda: page.text("#analysis-ply") == "64 / 64", 10, f"the 64-ply game did not set up: {page.errors()}")
    overflow = page.driver.execute_script(
        "const l = document.querySelector('#analysis-moves'); return l.scrollHeight - l.clientHeight")
    check(overflow > 0, "the 64-ply list does not overflow its box: the check would prove nothing")
    check(within_list(page, "#analysis-moves", ".current"), "at the end, the last move is not in view in the list")
    last = page.driver.execute_script("const l = document.querySelectorAll('#analysis-moves li'); return l[l.length - 1].className")
    check(last == "result-row", f"the list does not end with the result: its last row is {last}")
    result = page.text("#analysis-moves .result-row")
    check(result.startswith("1/2-1/2"), f"the result row says {result!r}, not the draw by flats")
    page.find("body").send_keys(Keys.HOME)
    page.find("body").send_keys(Keys.ARROW_RIGHT)
    page.wait(lambda: page.text("#analysis-ply") == "1 / 64", 5, "Home, Right did not show ply 1")
    check(within_list(page, "#analysis-moves", ".current"), "at ply 1, the first move is not in view in the list")
    top = page.driver.execute_script("return window.scrollY")
    check(top == 0, f"the list's scrolling moved the page by {top}px")
    print(f"move list: 64 plies, the move shown in view at each end, last row {result!r}")


def check_reload_restores(page):
    """Item 4: a reload brings back the set-up form (clock, engine time, sizes, players) and the
    tab the page was on."""
    page.tab("play")
    page.set_form("play-setup", {"game": "gomoku", "tc": ""})
    page.set_form("play-setup", {"size": "13", "rule": "standard", "movetime": "700", "depth": "3",
                                 "player0": "gomoku", "player1": "person"})
    page.set_form("play-setup", {"tc": "3+2"})
    page.tab("analysis")
    page.driver.refresh()
    page.wait(lambda: page.text("#connection") == "connected", 10, "the page did not reconnect after a reload")
    check(not page.find("#tab-analysis").get_attribute("hidden"), "after a reload the page is not on the Analyse tab")
    page.wait(lambda: page.find("#play-setup [name=player0]").get_attribute("value") == "gomoku", 10,
              "after a reload the first player is not the engine chosen")
    form = {name: page.find(f"#play-setup [name={name}]").get_attribute("value")
            for name in ["game", "size", "rule", "tc", "depth", "player0", "player1"]}
    expected = {"game": "gomoku", "size": "13", "rule": "standard", "tc": "3+2", "depth": "3", "player0": "gomoku",
                "player1": "person"}
    check(form == expected, f"after a reload the form is {form}, not {expected}")
    check(page.find("#play-setup [name=movetime]").get_attribute("disabled") is not None,
          "after a reload with a clock, the engine's move time is not off")
    page.tab("play")
    page.set_form("play-setup", {"game": "tak", "tc": "", "depth": "", "player0": "person"})
    page.driver.execute_script(
        "document.querySelector('#play-setup [name=tc]').dispatchEvent(new Event('input', {bubbles: true}))")
    print(f"reload: the form comes back ({form['game']} {form['size']} {form['rule']}, clock {form['tc']}) on the Analyse tab")


def check_in_view(page, screenshots):
    """Item 5: in a 1400x1000 window (a page area of 1400x857) the stack move's finishing button,
    the flat/wall/cap row in Analyse and the renju warning are in view; an error bar leaves Undo
    and the move box in view; the flat/wall/cap row keeps its place while the engine thinks."""
    driver = page.driver
    try:
        driver.set_window_size(1400, 1000)
        check(driver.execute_script("return window.innerHeight") <= 860, "the window leaves more than 857 px")
        # A Tak stack of two: c3 then c4 leaves a choice, dropping one there (the finishing button).
        new_game(page, "tak", ["person", "slowtak"], movetime="100", depth="", tc="")
        page.wait(lambda: page.attributes("#play-board .target", "data-overlay"), 20, "the person never got the move")
        page.click_cell("play", "a1")
        page.wait(lambda: len(page.moves("play")) == 2 and page.attributes("#play-kinds button:not([disabled])", "data-kind"),
                  20, "after the engine's answer the person has no flat/wall/cap row")
        kinds_top = page.driver.execute_script(
            "return document.querySelector('#play-kinds').getBoundingClientRect().top + window.scrollY")
        page.type_move("play", "c3")
        page.wait(lambda: len(page.moves("play")) >= 3, 10, "c3 was not played")
        # While the engine thinks the row stays, its buttons off (by then it may have answered).
        count, top, off = page.driver.execute_script("""
            return [document.querySelectorAll('#play-moves li.move').length,
                    document.querySelector('#play-kinds').getBoundingClientRect().top + window.scrollY,
                    [...document.querySelectorAll('#play-kinds button')].map(b => b.disabled)];""")
        check(len(off) >= 2 and (count > 3 or all(off)), f"while the engine thinks the flat/wall/cap row is {off}")
        check(abs(top - kinds_top) < 1, f"the flat/wall/cap row moved from {kinds_top} to {top} while the engine thinks")
        page.type_move("play", "zz99")
        page.wait(lambda: page.errors(), 10, "no error for an illegal typed move")
        for selector in ["#play-undo", "#play-typed input"]:
            check(in_view(page, selector), f"with an error shown, {selector} is out of view")
        check(not error_covers(page, "#play-undo, #play-typed input, #play-typed button"), "the error covers Undo or the move box")
        page.find("#errors .error-close").click()
        new_game(page, "tak", ["person", "person"], movetime="", depth="", tc="")
        for move in ["a1", "b1", "b2", "c3", "b1+"]:  # then b2 holds a stack of two, White's on top
            page.type_move("play", move)
        page.wait(lambda: len(page.moves("play")) == 5, 10, f"the stack was not built: {page.errors()} {page.moves('play')}")
        page.type_move("play", "a2")
        page.wait(lambda: len(page.moves("play")) == 6, 10, "a2 was not played")
        page.click_cell("play", "b2")
        page.click_cell("play", "b3")
        page.wait(lambda: page.attributes("#play-choices button", "data-move"), 5, "no finishing button for the stack move")
        check(in_view(page, "#play-choices button"), "the button that finishes a stack move is out of view")
        if screenshots:
            driver.save_screenshot(os.path.join(screenshots, "gui-tak-stack-move-desktop.png"))
        page.find("#play-clear").click()
        # Analyse: the flat/wall/cap row.
        set_up(page, "tak", {"size": "6", "komi": "0", "position": "", "moves": "a1 f6"})
        page.wait(lambda: page.all("#analysis-kinds button"), 10, "Analyse offers no flat/wall/cap row")
        check(in_view(page, "#analysis-kinds"), "the flat/wall/cap row in Analyse is out of view")
        # The renju warning, on the Play board (9x9 renju: g5 is a double three for Black).
        new_game(page, "gomoku", ["person", "person"], movetime="", depth="", tc="")
        for move in "e5 a1 f5 c1 g6 i9 g7 a9".split():
            page.type_move("play", move)
        page.wait(lambda: len(page.moves("play")) == 8, 10, f"the renju position was not played: {page.errors()}")
        page.click_cell("play", "g5")
        page.wait(lambda: "forbidden" in page.text("#play-warning"), 5, "no renju warning on the forbidden point")
        check(in_view(page, "#play-warning"), "the renju warning is out of view")
        if screenshots:
            driver.save_screenshot(os.path.join(screenshots, "gui-renju-warning-desktop.png"))
    finally:
        driver.set_window_size(1300, 1100)
    print("in view at 1400x857: the stack move's button, Analyse's flat/wall/cap row, the renju warning, "
          "Undo and the move box under an error; the flat/wall/cap row stays put while the engine thinks")


def check_lichess_analysis(page):
    """Item 6: Stop keeps the last evaluation; a typed move in Analyse; the graph's axis labels;
    the PV's wall and capstone placements marked S and C."""
    set_up(page, "tak", {"size": "5", "komi": "0", "position": "", "moves": "a1 e5"})
    page.type_move("analysis", "c3")
    page.wait(lambda: page.text("#analysis-ply") == "3 / 3", 10, f"a typed move did not play in Analyse: {page.errors()}")
    Select(page.find("#analysis-engine")).select_by_value("tak")
    page.find("#analysis-go").click()
    page.wait(lambda: "depth" in page.text("#analysis-info"), 15, "no search shown")
    page.find("#analysis-stop").click()
    page.wait(lambda: page.attributes("#analysis-stop", "disabled")[0] is not None, 10, "Stop did not stop")
    time.sleep(0.5)
    info = page.text("#analysis-info")
    check("depth" in info and "stopped" in info, f"after Stop the info line is {info!r}")
    labels = page.driver.execute_script(
        "return [...document.querySelectorAll('#analysis-graph .graph-label, #analysis-graph .graph-axis')].map(e => e.textContent)")
    check("+10" in labels and "0" in labels and any("move" in l for l in labels), f"the graph's axis labels are {labels}")
    stones = page.driver.execute_script("""
        const board = {size: 5, komi: 0, stacks: {}, reserves: [[21, 1], [21, 1]], flats: [0, 0]};
        const svg = drawBoard('tak', board, {pv: {moves: ['Sc3', 'Cb2', 'a1'], paths: [['c3'], ['b2'], ['a1']]}, pvFirstSide: 0});
        return [...svg.querySelectorAll('.pv-number')].map(e => [e.textContent, e.dataset.pvStone]);""")
    check(stones == [["1S", "S"], ["2C", "C"], ["3", ""]], f"the PV marks read {stones}")
    print(f"analysis as lichess: typed move, Stop keeps {info[:40]!r}…, axis labels {labels}, PV marks {stones}")

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gui", required=True)
    parser.add_argument("--bin", required=True, help="folder of the engines and the arbiter")
    parser.add_argument("--screenshots", default="")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="", help="comma-separated checks to run alone (e.g. variations,engine_options)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    if args.screenshots:
        os.makedirs(args.screenshots, exist_ok=True)
    fake = os.path.join(HERE, "fake_engine.py")
    # The foreign-engine fakes write what the GUI sends them here (relay.py).
    relay_log = tempfile.NamedTemporaryFile(prefix="gui-relay-", suffix=".log", delete=False).name
    os.environ["BGE_RELAY_LOG"] = relay_log
    slow = os.path.join(HERE, "slow_tei.py")
    gui = Gui(args.gui, ["--engines-dir", args.bin,
                         "--engine", f'game=tak name=crasher cmd={sys.executable} "args={fake} crash" stderr=/dev/null',
                         "--engine", f'game=tak name=hanger cmd={sys.executable} "args={fake} hang" stderr=/dev/null',
                         "--engine", f'game=tak name=slowtak cmd={sys.executable} "args={slow} {os.path.join(args.bin, "tak")} 250" stderr=/dev/null',
                         "--engine", "game=tak name=missing cmd=/nonexistent/engine stderr=/dev/null",
                         "--engine", f'game=gomoku name=rapfi-like proto=pbrain cmd={sys.executable} "args={os.path.join(HERE, "slow_pbrain.py")} {os.path.join(args.bin, "gomoku")} 200" stderr=/dev/null'])
    directory = tempfile.mkdtemp(prefix="gui-test-")
    driver = None
    try:
        driver = start_browser(os.path.join(directory, "profile"))
        page = Page(driver, gui.url)
        if args.only:  # a quick run of some checks while working on them
            for name in args.only.split(","):
                check_function = globals()[f"check_{name}"]
                arguments = {"page": page, "rng": rng, "relay_log": relay_log, "screenshots": args.screenshots,
                             "driver": driver, "gui_url": gui.url,
                             "games": args.games.split(",")}
                check_function(*[arguments[p] for p in check_function.__code__.co_varnames[:check_function.__code__.co_argcount]])
            print("1 passed, 0 failed")
            return 0
        check_empty_page(driver, gui.url, args.screenshots)
        page = Page(driver, gui.url)
        for game in args.games.split(","):
            play_full_game(page, game, os.path.join(args.bin, game), rng, args.screenshots)
        for game in args.games.split(","):
            check_record(page, game, os.path.join(args.bin, "arbiter"), os.path.join(args.bin, game), directory,
                         args.screenshots)
        check_set_ups(page, args.screenshots)
        check_analysis(page, args.screenshots)
        check_failing_engines(page)
        check_failed_start(page)
        check_slow_engine(page)
        check_clock_game(page, rng)
        check_bad_load(page)
        check_renju_confirm(page)
        check_reconnect(page, rng)
        check_record_tools(page, rng)
        check_quiet_board(page)
        check_play_steps(page, rng)
        check_pbrain_engine(page, rng)
        check_variations(page, args.screenshots)
        check_pbrain_analysis(page)
        check_engine_options(page, relay_log, args.screenshots)
        check_layouts(page, args.games.split(","), rng, args.screenshots)
        new_game(page, "tak", ["person", "tak"])  # the page recovers: a real engine plays again
        page.wait(lambda: page.attributes("#play-board .target", "data-overlay"), 10, "the person never got the move")
        page.type_move("play", "a1")
        page.wait(lambda: len(page.moves("play")) >= 2, 10, "after the failing engines, a new game did not go on")
        check(not page.errors(), f"the page showed errors: {page.errors()}")
        check_keys_to_board(page)
        check_move_list(page)
        check_lichess_analysis(page)
        check_in_view(page, args.screenshots)
        check_reload_restores(page)
        check_watch(driver, args.gui, directory, args.screenshots)
        print("1 passed, 0 failed")
        return 0
    except Failure as failure:
        print(f"FAILED: {failure}")
        print(f"the gui's stderr ended with:\n{gui.log_tail()}")
        if driver and args.screenshots:
            driver.save_screenshot(os.path.join(args.screenshots, "failure.png"))
        return 1
    finally:
        if driver:
            driver.quit()
        gui.stop()
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
