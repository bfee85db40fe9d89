"""World Gainer (game id ``worldgainer``)."""

from engine.worldgainer.rules import WorldGainer

__all__ = ["WorldGainer"]
