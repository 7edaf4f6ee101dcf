"""What the GUI tests' foreign-engine fakes share: a real engine run as a child, every line passed
both ways, and a hook that sees (and may replace, delay or precede) each line the engine writes."""
import os
import subprocess
import sys
import threading


def relay(command, on_engine_line, last_command):
    """Runs `command`, passes stdin to it line by line until `last_command` (quit, END), and
    hands each line it writes to `on_engine_line`, which prints what the GUI should read."""
    engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def from_engine():
        for line in engine.stdout:
            on_engine_line(line)

    threading.Thread(target=from_engine, daemon=True).start()
    # BGE_RELAY_LOG names a file that gets every line the GUI sends (the tests read the options).
    log = open(os.environ["BGE_RELAY_LOG"], "a") if os.environ.get("BGE_RELAY_LOG") else None
    for line in sys.stdin:
        if log:
            log.write(line)
            log.flush()
        engine.stdin.write(line)
        engine.stdin.flush()
        if line.split()[:1] == [last_command]:
            break
    engine.wait(timeout=10)
