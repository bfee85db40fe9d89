"""A server started with another key file than the one that sealed a match's seed (issue 9's
keys, issue 16's derived commitments): it still shows the match's positions and transcript;
what needs the seed answers ``500 key_mismatch`` with the documented body, never a traceback."""

from __future__ import annotations

from pathlib import Path

from replay.service import Kiroku
from tests.replay.conftest import serve


def test_a_server_with_another_key_file_shows_positions_but_not_a_live_matchs_records(
        tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    kiroku = Kiroku.open(f"sqlite:///{db}")
    match_id = kiroku.new_match("worldgainer", ["Ann", "Ben"], ["solar_vanguard",
                                "pleiades_bloom"], options={"first_player": 1})
    for seat in (1, 2):  # each draws a card: a hidden value, committed to
        kiroku.record(match_id, {"type": "end_turn", "seat": seat}, recorded_by="judge")
    kiroku.close()
    Path(f"{db}.keys").rename(tmp_path / "elsewhere.keys")  # the server makes a new one
    for server in serve(db):
        with server.client(server.organiser_token) as client:
            assert client.get(f"/matches/{match_id}/state").status_code == 200
            assert client.get(f"/matches/{match_id}/transcript").status_code == 200
            answer = client.get(f"/matches/{match_id}/events")
            assert answer.status_code == 500, answer.text
            body = answer.json()
            assert body["code"] == "key_mismatch" and "key file" in body["message"]
            refused = client.post(f"/matches/{match_id}/actions",
                                  json={"action": {"type": "end_turn", "seat": 1}})
            assert refused.status_code == 500 and refused.json()["code"] == "key_mismatch"
