"""Quest for the Grail, rules document 002 with rulings C1-C5, G1-G8 and X1-X2."""

from engine.grail.ruleset import Grail

__all__ = ["Grail"]
