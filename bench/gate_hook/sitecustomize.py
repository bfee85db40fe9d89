"""Loaded by every Python process started with this folder on ``PYTHONPATH``: where
``KIROKU_GATE_PROBE`` names a folder, the write gate's probe is installed (``gate_probe``).
bench/gate_hold.py starts its server so; nothing else puts this folder on a path."""

import os

if os.environ.get("KIROKU_GATE_PROBE"):
    import gate_probe

    gate_probe.install(os.environ["KIROKU_GATE_PROBE"])
