"""Pairings in, results out: the files a tournament exchanges with its pairing software.

Reading (``read_pairings(data, round=, filename=)`` → ``PairingsFile``; ``parse_pairings(text)``
→ the latest round's ``Pairing`` list). Pure: no I/O beyond the given bytes or text, no clock,
no randomness. Every failure is ``PairingsRejected`` with a sentence (where, and why).

| format      | detected by                                          | module        |
|-------------|------------------------------------------------------|---------------|
| tom         | text starting with ``<``, root ``<tournament>``      | ``tom``       |
| limitless   | text starting with ``[`` (a JSON list of matches)    | ``limitless`` |
| kiroku      | CSV header ``table, opponents, result`` + an id      | ``csv_files`` |
| melee       | CSV header ``TableNumber``, ``PlayerN``, a decklist  | ``csv_files`` |
| aetherhub   | CSV header ``Player, Opponent`` + round/results      | ``csv_files`` |
| topdeck     | CSV header round + ``Winner``/``Status``             | ``csv_files`` |
| endstep     | CSV header round + ``Result`` (a guess)              | ``csv_files`` |
| csv         | any other CSV with a table and player columns        | ``csv_files`` |

Each module says where its shape comes from and what could not be verified. A file of several
rounds is read for the round asked (default: its latest), and a table or a player is checked
for a second use within that round only.

Writing — which tool reads which file:

- ``results_csv(rows, columns)``: Kiroku's results.csv (and any list of rows). Read by
  spreadsheets, and by ``read_pairings`` (format "kiroku"): a round's results read back as that
  round's pairings. No pairing program is known to import it.
- ``standings_csv(rows)``: the standings, fractions at fixed decimals (``fixed``: "0.5000").
  For spreadsheets and the wall; the same columns as Kiroku's standings.csv.
- ``match_results_csv(rows)``: one line per table (``Round, Table, Player 1, Player 2,
  Player 1 Wins, Player 2 Wins, Draws``), shaped like the match-result sheets organisers keep
  and read back by ``read_pairings``. Melee.gg and EventLink publish no results-import format
  that could be found; importing this file into them is not verified.
- ``tdf_results(tdf, rows, round=)``: a TOM ``.tdf`` with a round's outcomes set (1, 2, 3; byes
  keep 5), for TOM to open: the file's own text, only those ``outcome`` attributes changed;
  its matches are read back unchanged by ``read_pairings``. That TOM opens it is inferred from
  the format as public TDF tools read and write it; TOM was not run.
"""

from replay.pairings.common import (
    MAX_CELL_CHARS,
    MAX_FILE_ROWS,
    MAX_PAIRINGS_BYTES,
    MAX_PAIRINGS_ROWS,
    MAX_ROUND,
    MAX_TABLE,
    Pairing,
    PairingsFile,
    PairingsRejected,
)
from replay.pairings.players import PlayerEntry, read_players
from replay.pairings.reader import parse_pairings, read_pairings, read_text
from replay.pairings.text import decode
from replay.pairings.tom import tdf_results
from replay.pairings.writers import (
    FRACTION_COLUMNS,
    STANDINGS_COLUMNS,
    fixed,
    match_results_csv,
    results_csv,
    standings_csv,
)

__all__ = [
    "FRACTION_COLUMNS",
    "MAX_CELL_CHARS",
    "MAX_FILE_ROWS",
    "MAX_PAIRINGS_BYTES",
    "MAX_PAIRINGS_ROWS",
    "MAX_ROUND",
    "MAX_TABLE",
    "STANDINGS_COLUMNS",
    "Pairing",
    "PlayerEntry",
    "PairingsFile",
    "PairingsRejected",
    "decode",
    "fixed",
    "match_results_csv",
    "parse_pairings",
    "read_pairings",
    "read_players",
    "read_text",
    "results_csv",
    "standings_csv",
    "tdf_results",
]
