"""A UGI engine that misbehaves on purpose, for the GUI's tests: `crash` exits when asked to
move (the GUI must show it crashed and lose the game by disconnect), `hang` never answers `go`
nor `stop` (the GUI must show it hung, kill it and lose the game on time). Everything before
`go` is answered as a real UGI engine does."""
import sys

mode = sys.argv[1] if len(sys.argv) > 1 else "crash"
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] in ("ugi", "tei"):
        print("id name fake-" + mode)
        print("option name Size type spin default 6 min 3 max 8")
        print(words[0] + "ok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "go":
        if mode == "crash":
            sys.exit(3)
        # hang: read on, answering nothing
    elif words[0] == "quit":
        break
