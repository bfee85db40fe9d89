"""Loaded by every Python process started with this folder on ``PYTHONPATH``: where
``KIROKU_GATE_PROBE`` names a folder, the write gate's probe is installed (``gate_probe``).
bench/gate_hold.py starts its server so; nothing else puts this folder on a path. In those
processes it stands in for any other ``sitecustomize`` the interpreter would have loaded
(the virtual environment Kiroku's README makes has none)."""

import os

if os.environ.get("KIROKU_GATE_PROBE"):
    import gate_probe

    gate_probe.install(os.environ["KIROKU_GATE_PROBE"])
