#!/usr/bin/env python3
"""Drives tools/referee/expendibots_player exactly as the COMP30024 (2020) referee does, for full
games against a random player, and checks every action with its own rules.

What the referee does, and this driver copies (its interface, looked up; not its code):
  - it imports the package given on its command line with importlib and takes the class named
    Player from it;
  - it constructs Player("white") and then Player("black"), each call timed;
  - White moves first; the side to move is asked .action(), which must return a tuple
    ("MOVE", n, (x_a, y_a), (x_b, y_b)) or ("BOOM", (x, y)) that is among the legal actions;
  - after every action both players, the mover first as listed (white, black), get
    .update(colour, action);
  - each player's calls are timed with time.process_time() and summed over the game; over the
    limit (60 s with -t) the player loses; the game ends as docs/expendibots.md says (a side
    without tokens, 500 actions, a position the 4th time).

The rules here are written from docs/expendibots.md, independent of the engine's C++ rules.
Exit status 0 when every game ended properly and our player won it.
"""

import argparse
import importlib
import os
import random
import resource
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TIME_LIMIT_S = 60.0
MAX_ACTIONS = 500


# --- Rules, from docs/expendibots.md ------------------------------------------------------------

def start_board():
    board = {}
    for x in (0, 1, 3, 4, 6, 7):
        for y in (0, 1):
            board[(x, y)] = 1
        for y in (6, 7):
            board[(x, y)] = -1
    return board


def sign(colour):
    return 1 if colour == "white" else -1


def legal_actions(board, colour):
    own = sign(colour)
    actions = [("BOOM", square) for square, n in board.items() if n * own > 0]
    for (x, y), n in board.items():
        height = n * own
        if height <= 0:
            continue
        for distance in range(1, height + 1):
            for dx, dy in ((0, 1), (-1, 0), (1, 0), (0, -1)):
                to = (x + dx * distance, y + dy * distance)
                if not (0 <= to[0] < 8 and 0 <= to[1] < 8):
                    continue
                if board.get(to, 0) * own < 0:
                    continue  # never onto the opponent
                for count in range(1, height + 1):
                    actions.append(("MOVE", count, (x, y), to))
    return actions


def apply(board, colour, action):
    if action[0] == "MOVE":
        _, count, a, b = action
        moved = count * sign(colour)
        board[a] -= moved
        if board[a] == 0:
            del board[a]
        board[b] = board.get(b, 0) + moved
    else:
        to_explode = [action[1]]
        while to_explode:
            x, y = to_explode.pop()
            if (x, y) not in board:
                continue
            del board[(x, y)]
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    if (x + dx, y + dy) in board:
                        to_explode.append((x + dx, y + dy))


def tokens(board, colour):
    return sum(n * sign(colour) for n in board.values() if n * sign(colour) > 0)


def snapshot(board, actions_played):
    return (tuple(sorted(board.items())), actions_played % 2)


def result_of(board, actions_played, occurrences):
    white, black = tokens(board, "white"), tokens(board, "black")
    if white == 0 and black == 0:
        return "draw: no tokens"
    if black == 0:
        return "winner: white"
    if white == 0:
        return "winner: black"
    if actions_played >= MAX_ACTIONS:
        return "draw: turn limit"
    if occurrences >= 4:
        return "draw: 4-fold repetition"
    return None


# --- Players ----------------------------------------------------------------------------------

class RandomPlayer:
    """A uniformly random legal action (or, moves_only, a random MOVE: it never explodes, so the
    games last longer and our player has to do the exploding); keeps its own board."""

    def __init__(self, colour, seed, moves_only=False):
        self.colour = colour
        self.board = start_board()
        self.random = random.Random(seed)
        self.moves_only = moves_only

    def action(self):
        actions = legal_actions(self.board, self.colour)
        if self.moves_only:
            actions = [action for action in actions if action[0] == "MOVE"] or actions
        return self.random.choice(actions)

    def update(self, colour, action):
        apply(self.board, colour, action)


class Timed:
    """The referee's wrapper: every call timed in CPU seconds of this process, summed per game."""

    def __init__(self, make, colour):
        self.colour = colour
        self.clock = 0.0
        self.player = self._timed(make, colour)

    def _timed(self, call, *arguments):
        start = time.process_time()
        value = call(*arguments)
        self.clock += time.process_time() - start
        if self.clock > TIME_LIMIT_S:
            raise RuntimeError(f"{self.colour} exceeded the referee's {TIME_LIMIT_S} s")
        return value

    def action(self):
        return self._timed(self.player.action)

    def update(self, colour, action):
        return self._timed(self.player.update, colour, action)


def virtual_memory_peak_mb():
    """VmPeak of this process, as the referee measures a player's space (None off Linux)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmPeak:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def play(ours_class, our_colour, seed, moves_only):
    players = []
    for colour in ("white", "black"):
        if colour == our_colour:
            players.append(Timed(ours_class, colour))
        else:
            players.append(Timed(lambda c: RandomPlayer(c, seed, moves_only), colour))
    board = start_board()
    history = {snapshot(board, 0): 1}
    actions_played = 0
    mover = 0
    while True:
        player = players[mover]
        action = player.action()
        if action not in legal_actions(board, player.colour):
            raise RuntimeError(f"{player.colour} played an illegal action: {action!r}")
        apply(board, player.colour, action)
        actions_played += 1
        key = snapshot(board, actions_played)
        history[key] = history.get(key, 0) + 1
        for each in players:
            each.update(player.colour, action)
        result = result_of(board, actions_played, history[key])
        if result:
            ours = players[0 if our_colour == "white" else 1]
            closer = getattr(ours.player, "close", None)
            if closer:
                closer()
            return result, actions_played, ours.clock
        mover = 1 - mover


def check_conversions(module):
    """Every action of the start position, both ways, and a few the start does not have."""
    player_module = importlib.import_module(module.__name__ + ".player")
    for colour in ("white", "black"):
        for action in legal_actions(start_board(), colour):
            text = player_module.action_to_text(action)
            assert player_module.text_to_action(text) == action, (action, text)
    assert player_module.action_to_text(("MOVE", 12, (0, 0), (0, 7))) == "12a1a8"
    assert player_module.text_to_action("12a1a8") == ("MOVE", 12, (0, 0), (0, 7))
    assert player_module.action_to_text(["BOOM", [7, 7]]) == "xh8"  # lists, as JSON gives them
    for bad in (("BOOM", (8, 0)), ("MOVE", 0, (0, 0), (0, 1)), ("JUMP", (0, 0)), ("BOOM",)):
        try:
            player_module.action_to_text(bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} was converted")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", required=True, help="the expendibots engine")
    parser.add_argument("--games", type=int, default=4, help="games; our player alternates colours, and the "
                        "second half are against the random player that never explodes")
    parser.add_argument("--seed", type=int, default=1, help="the random player's seed (game i uses seed+i)")
    parser.add_argument("--game-time-ms", default="1500", help="the engine's whole-game CPU budget")
    arguments = parser.parse_args()

    os.environ["EXPENDIBOTS_BINARY"] = arguments.binary
    os.environ["EXPENDIBOTS_GAME_TIME_MS"] = arguments.game_time_ms
    sys.path.insert(0, os.path.join(HERE, "..", "tools", "referee"))
    module = importlib.import_module("expendibots_player")  # as the referee loads a package
    ours = getattr(module, "Player")
    check_conversions(module)

    failures = 0
    memory_before = virtual_memory_peak_mb()
    for game in range(arguments.games):
        our_colour = "white" if game % 2 == 0 else "black"
        children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        moves_only = game >= arguments.games // 2
        result, actions, our_clock = play(ours, our_colour, arguments.seed + game, moves_only)
        children_after = resource.getrusage(resource.RUSAGE_CHILDREN)
        engine_cpu = (children_after.ru_utime + children_after.ru_stime -
                      children_before.ru_utime - children_before.ru_stime)
        won = result == "winner: " + our_colour
        opponent = "random MOVEs" if moves_only else "random"
        print(f"game {game + 1}: expendibots_player as {our_colour} against {opponent}: {result} after {actions} actions; "
              f"referee-timed CPU {our_clock:.3f} s, engine CPU {engine_cpu:.3f} s")
        if not won:
            failures += 1
        if engine_cpu > TIME_LIMIT_S:
            print(f"game {game + 1}: the engine used {engine_cpu:.1f} s of CPU, over the course's {TIME_LIMIT_S} s")
            failures += 1
    memory_after = virtual_memory_peak_mb()
    if memory_before is not None:
        # The referee's space limit (100 MB a player with -s) is on this process's VmPeak.
        grown = memory_after - memory_before
        print(f"this process's VmPeak grew by {grown:.1f} MB over the games")
        if grown > 100:
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
