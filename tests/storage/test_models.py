"""The pydantic models at the storage boundary: snapshot envelope, seats, options."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from storage.models import (
    Computer,
    Human,
    Occupant,
    Snapshot,
    SnapshotError,
    TableSettings,
    dump_options,
    dump_seats,
    load_options,
    load_seats,
)


def test_snapshot_envelope_round_trips_without_re_encoding_the_state() -> None:
    state = '{"game":"ono99","players":2,"to_act":[0],"deck":["5H","KS"]}'
    text = Snapshot.dump("ono99", 12, state)
    assert json.loads(text) == {
        "schema": 1, "game": "ono99", "version": 12, "state": json.loads(state),
    }
    env = Snapshot.parse(text)
    assert (env.schema_version, env.game, env.version) == (1, "ono99", 12)
    assert env.state["deck"] == ["5H", "KS"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (None, "missing"),
        ("", "json"),
        ("[1, 2]", "snapshot"),
        ('{"schema": 2, "game": "x", "version": 0, "state": {}}', "schema"),
        ('{"schema": 1, "game": "x", "version": -1, "state": {}}', "version"),
        ('{"schema": 1, "game": "x", "version": 0, "state": []}', "state"),
        ('{"schema": 1, "game": "x", "version": 0, "state": {}, "extra": 1}', "extra"),
    ],
)
def test_bad_snapshots_say_what_is_wrong(text: str | None, words: str) -> None:
    with pytest.raises(SnapshotError) as info:
        Snapshot.parse(text)
    assert words in str(info.value).lower()


def test_seats_round_trip_and_reject_nonsense() -> None:
    seats: list[Occupant] = [
        Human(user_id=5, name="Alice"), Computer(bot="normal", number=1),
        Computer(bot="expert", stands_for="Alice"), Computer(bot="random"),
    ]
    assert load_seats(dump_seats(seats)) == seats
    with pytest.raises(ValidationError):
        load_seats('[{"user_id": "5", "name": "A"}]')
    with pytest.raises(ValidationError):
        load_seats('[{"user_id": 5, "name": ""}]')
    with pytest.raises(ValidationError):
        load_seats('[{"user_id": 5, "bot": "normal", "name": "both"}]')


def test_options_and_settings() -> None:
    text = dump_options({"target": 100, "big_gin": True, "mode": "fast"})
    assert load_options(text) == {"big_gin": True, "mode": "fast", "target": 100}
    with pytest.raises(ValidationError):
        dump_options({"target": [1, 2]})
    assert TableSettings().turn_timer == 300
    with pytest.raises(ValidationError):
        TableSettings(turn_timer=-1)
    with pytest.raises(ValidationError):
        TableSettings(turn_timer=10**9)
