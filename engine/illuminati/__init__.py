"""Illuminati: New World Order (game id ``illuminati``)."""

from engine.illuminati.ruleset import Illuminati

__all__ = ["Illuminati"]
