"""Pairings in, results out: the files a tournament exchanges with its pairing software.

The code lives in the package ``replay.pairing_files`` (its docstring lists the formats read,
where each shape comes from, and which tool reads which file written); this module keeps the
names Kiroku has always imported from here.
"""

from replay.pairing_files import (
    FRACTION_COLUMNS,
    MAX_CELL_CHARS,
    MAX_FILE_ROWS,
    MAX_PAIRINGS_BYTES,
    MAX_PAIRINGS_ROWS,
    MAX_ROUND,
    MAX_TABLE,
    STANDINGS_COLUMNS,
    Pairing,
    PairingsFile,
    PairingsRejected,
    PlayerEntry,
    decode,
    fixed,
    match_results_csv,
    parse_pairings,
    read_pairings,
    read_players,
    read_text,
    results_csv,
    standings_csv,
    tdf_results,
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
