"""Illuminati: New World Order (game id ``illuminati``)."""

from engine.illuminati.rules import Illuminati

__all__ = ["Illuminati"]
