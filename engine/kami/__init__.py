"""Kami no Kijutsu (神の記述), rules document 001 with rulings C1-C5, K1-K9 and X1-X2."""

from engine.kami.ruleset import Kami

__all__ = ["Kami"]
