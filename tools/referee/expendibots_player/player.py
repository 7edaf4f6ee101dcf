"""A Player for the COMP30024 (2020) Expendibots referee that plays with the `expendibots` engine.

The referee constructs Player(colour) with colour "white" or "black", asks the side to move for
.action(), and then tells both players every action with .update(colour, action). Actions are
tuples: ("MOVE", n, (x_a, y_a), (x_b, y_b)) and ("BOOM", (x, y)), with x the column and y the row,
both 0-7, White starting on rows 0 and 1.

This class starts one engine process per player, speaks UGI to it over pipes, and converts the
actions both ways: the engine's moves are `c2c3`, `3c2c5` and `xc2` (docs/expendibots.md). The
engine plans its own CPU time over the whole game (its GameTimeBudget option), which keeps it
under the referee's limits: the referee measures only this Python process (CPU time with
time.process_time, memory from /proc/self/status), which spends its time waiting on a pipe, while
the engine's own 60 s and 100 MB budget is the course's rule for the player as a whole.

Configuration, by environment variable (the referee passes nothing but the colour):
  EXPENDIBOTS_BINARY        the engine; default: `expendibots` on PATH, else build/bin/expendibots
                            of the checkout this file is in
  EXPENDIBOTS_GAME_TIME_MS  the engine's CPU budget for the whole game, in ms (default 55000: the
                            referee's 60 s less a margin for starting up and for this process)
  EXPENDIBOTS_MEMORY_MB     the memory cap the engine sizes its table under (default 100)
  EXPENDIBOTS_OPTIONS       more engine options, "Name=value;Name=value" (e.g. "Player=greedy")
  EXPENDIBOTS_TIMEOUT_S     how long to wait for any answer before giving up (default 120)

Python 3.6 or later, standard library only.
"""

import os
import re
import select
import shutil
import subprocess
import time
import weakref

_FILES = "abcdefgh"
_MOVE_TEXT = re.compile(r"^([1-9][0-9]?)?([a-h])([1-8])([a-h])([1-8])$")
_BOOM_TEXT = re.compile(r"^x([a-h])([1-8])$")


class EngineError(RuntimeError):
    """The engine is missing, died, refused a command or said something we cannot read."""


# --- Actions, both ways ---------------------------------------------------------------------

def _square_text(square):
    x, y = square
    x, y = int(x), int(y)
    if not (0 <= x < 8 and 0 <= y < 8):
        raise ValueError(f"square {square!r} is off the 8x8 board")
    return f"{_FILES[x]}{y + 1}"


def action_to_text(action):
    """("MOVE", 3, (2, 1), (2, 4)) -> "3c2c5"; ("BOOM", (2, 1)) -> "xc2"."""
    try:
        kind = action[0]
        if kind == "BOOM" and len(action) == 2:
            return "x" + _square_text(action[1])
        if kind == "MOVE" and len(action) == 4:
            count = int(action[1])
            if not 1 <= count <= 12:
                raise ValueError(f"a MOVE carries 1 to 12 tokens, not {count}")
            prefix = "" if count == 1 else str(count)
            return prefix + _square_text(action[2]) + _square_text(action[3])
    except (TypeError, IndexError) as error:
        raise ValueError(f"not an Expendibots action: {action!r} ({error})") from None
    raise ValueError(f"not an Expendibots action: {action!r}")


def text_to_action(text):
    """"3c2c5" -> ("MOVE", 3, (2, 1), (2, 4)); "c2c3" -> ("MOVE", 1, ...); "xc2" -> ("BOOM", (2, 1))."""
    boom = _BOOM_TEXT.match(text)
    if boom:
        return ("BOOM", (_FILES.index(boom.group(1)), int(boom.group(2)) - 1))
    move = _MOVE_TEXT.match(text)
    if move:
        count = int(move.group(1)) if move.group(1) else 1
        return ("MOVE", count,
                (_FILES.index(move.group(2)), int(move.group(3)) - 1),
                (_FILES.index(move.group(4)), int(move.group(5)) - 1))
    raise ValueError(f"not an engine move: {text!r}")


# --- The engine process ---------------------------------------------------------------------

def _default_binary():
    named = os.environ.get("EXPENDIBOTS_BINARY")
    if named:
        return named
    on_path = shutil.which("expendibots")
    if on_path:
        return on_path
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "..", "..", "..", "build", "bin", "expendibots"))


def _stop_process(process):
    """Asks the engine to quit, then makes sure it is gone (also run at interpreter exit)."""
    if process.poll() is not None:
        return
    try:
        process.stdin.write(b"quit\n")
        process.stdin.flush()
        process.wait(timeout=2)
    except (OSError, ValueError, subprocess.TimeoutExpired):
        process.kill()
        process.wait()


class _Engine:
    """One engine process: lines in, lines out, with a timeout on every answer.

    No reader thread: a thread's stack would count in the memory the referee measures for this
    process (its virtual size), so output is read with select() on the pipe instead."""

    def __init__(self, binary, timeout_s):
        if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
            raise EngineError(f"no expendibots engine at {binary!r}: build it, or set EXPENDIBOTS_BINARY")
        self.timeout_s = timeout_s
        self.process = subprocess.Popen(
            [binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
        self._output = self.process.stdout.fileno()
        self._buffer = b""
        self._finalizer = weakref.finalize(self, _stop_process, self.process)

    def send(self, line):
        try:
            self.process.stdin.write(line.encode() + b"\n")
            self.process.stdin.flush()
        except (OSError, ValueError) as error:
            raise EngineError(f"the engine stopped reading its input ({error})") from None

    def _next_line(self, deadline):
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise EngineError(f"no answer from the engine within {self.timeout_s} s")
            ready, _, _ = select.select([self._output], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(self._output, 65536)
            if not chunk:
                raise EngineError(f"the engine exited (status {self.process.wait()})")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", "replace").rstrip("\r")

    def read_until(self, accept):
        """Lines up to and including the first one `accept` takes."""
        deadline = time.monotonic() + self.timeout_s
        seen = []
        while True:
            line = self._next_line(deadline)
            seen.append(line)
            if accept(line):
                return seen

    def sync(self):
        """isready / readyok; the engine's error lines before readyok become an EngineError."""
        self.send("isready")
        lines = self.read_until(lambda line: line == "readyok")
        errors = [line for line in lines if line.startswith("info string error")]
        if errors:
            raise EngineError("; ".join(errors))

    def close(self):
        self._finalizer()


class Player:
    """The referee's Player interface over the expendibots engine."""

    def __init__(self, colour):
        if colour not in ("white", "black"):
            raise ValueError(f"colour must be 'white' or 'black', not {colour!r}")
        self.colour = colour
        self.moves = []  # every action so far, as engine text
        timeout_s = float(os.environ.get("EXPENDIBOTS_TIMEOUT_S", "120"))
        self.engine = _Engine(_default_binary(), timeout_s)
        self.engine.send("ugi")
        self.engine.read_until(lambda line: line == "ugiok")
        options = [
            ("GameTimeBudget", "true"),
            ("GameTimeMs", os.environ.get("EXPENDIBOTS_GAME_TIME_MS", "55000")),
            ("MemoryMB", os.environ.get("EXPENDIBOTS_MEMORY_MB", "100")),
        ]
        for item in os.environ.get("EXPENDIBOTS_OPTIONS", "").split(";"):
            if item.strip():
                name, _, value = item.partition("=")
                options.append((name.strip(), value.strip()))
        for name, value in options:
            self.engine.send(f"setoption name {name} value {value}")
        self.engine.sync()  # an option the engine refused stops us here, with its reason
        # The game's CPU budget starts counting at uginewgame.
        self.engine.send("uginewgame")
        self.engine.sync()

    def action(self):
        position = "position startpos"
        if self.moves:
            position += " moves " + " ".join(self.moves)
        self.engine.send(position)
        self.engine.sync()
        self.engine.send("go")
        lines = self.engine.read_until(lambda line: line.startswith("bestmove") or
                                       line.startswith("info string error"))
        words = lines[-1].split()
        if words[0] != "bestmove" or len(words) != 2:
            raise EngineError(f"no move from the engine: {lines[-1]}")
        return text_to_action(words[1])

    def update(self, colour, action):
        self.moves.append(action_to_text(action))

    def close(self):
        """Not part of the referee's interface: ends the engine now rather than at exit."""
        self.engine.close()
