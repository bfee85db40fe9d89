"""On the Edge, rules document 003 with rulings C1-C5, E1-E8 and X1-X2."""

from engine.edge.ruleset import Edge

__all__ = ["Edge"]
