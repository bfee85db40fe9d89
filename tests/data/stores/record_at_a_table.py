"""Record short World Gainer matches into an SQLite store as a table does
(``bench/file_bytes.py``'s ``record_at_a_table``: the organiser's credential creates each
match, a scorekeeper's credential issued for it records every action).

    KIROKU_TREE=TREE python tests/data/stores/record_at_a_table.py STORE [MATCHES]

``TREE`` is the checkout whose code records (this one when unset). ``format-6.sqlite`` beside
this script holds two matches recorded so by ab48db0, the last version to write storage
formats 4, 5 and 6 (ledger.transcoder): tests/ledger/test_stored_bytes.py reads it with
today's code.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from file_bytes import Kiroku, record_at_a_table  # noqa: E402

if __name__ == "__main__":
    kiroku = Kiroku.open(f"sqlite:///{sys.argv[1]}")
    try:
        made = record_at_a_table(kiroku, "worldgainer", int(sys.argv[2]) if len(sys.argv) > 2
                                 else 1)
    finally:
        kiroku.close()
    print("\n".join(str(match_id) for match_id in made))
