# The course's referee (`python -m referee <white> <black>`) imports this package and plays the
# class named Player; docs/expendibots.md, "Playing in the course's referee".
from .player import Player

__all__ = ["Player"]
