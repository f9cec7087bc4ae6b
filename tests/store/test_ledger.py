"""The ledger's lease, call by call, on SQLite and PostgreSQL (a hand-moved clock)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from bot.model.windows import WindowKey
from bot.store import Store

R, D = "o/r", "slack:C1"
W = WindowKey("2026-03-25", datetime(2026, 3, 25, 11, 43, tzinfo=ZoneInfo("Asia/Shanghai")))
T0 = datetime(2026, 3, 26, 4, 0, tzinfo=UTC)
LEASE = timedelta(seconds=30)
S = timedelta(seconds=1)


def claim(store: Store, owner: str, now: datetime, part: str = "p") -> object:
    return store.ledger.claim(R, W, D, part, owner, now, LEASE)


def test_a_new_part_is_leased_to_its_first_claimer(store: Store) -> None:
    first = store.ledger.claim(R, W, D, "p", "a", T0, LEASE)
    assert (first.message_id, first.held, first.new) == (None, True, True)
    second = store.ledger.claim(R, W, D, "p", "b", T0 + S, LEASE)
    assert (second.message_id, second.held, second.new) == (None, False, False)
    assert second.lease_until == T0 + LEASE


def test_the_holder_claims_again_as_not_new(store: Store) -> None:
    store.ledger.claim(R, W, D, "p", "a", T0, LEASE)
    again = store.ledger.claim(R, W, D, "p", "a", T0 + S, LEASE)
    assert (again.held, again.new) == (True, False)


def test_a_lease_is_taken_over_exactly_when_it_ends(store: Store) -> None:
    store.ledger.claim(R, W, D, "p", "a", T0, LEASE)
    before = store.ledger.claim(R, W, D, "p", "b", T0 + LEASE - S, LEASE)
    assert not before.held
    at_end = store.ledger.claim(R, W, D, "p", "b", T0 + LEASE, LEASE)
    assert (at_end.held, at_end.new) == (True, False)
    assert not store.ledger.holds(R, W, D, "p", "a", T0 + LEASE, LEASE)  # fenced off
    assert store.ledger.holds(R, W, D, "p", "b", T0 + LEASE, LEASE)


def test_a_sent_part_is_never_leased_again(store: Store) -> None:
    store.ledger.claim(R, W, D, "p", "a", T0, LEASE)
    store.ledger.record(R, W, D, "p", "sent", "m1", T0)
    later = store.ledger.claim(R, W, D, "p", "b", T0 + 10 * LEASE, LEASE)
    assert (later.message_id, later.held) == ("m1", False)
    assert not store.ledger.holds(R, W, D, "p", "a", T0, LEASE)
    store.ledger.record(R, W, D, "p", "confirmed", None, T0)  # keeps the id
    assert store.ledger.claim(R, W, D, "p", "b", T0, LEASE).message_id == "m1"
    assert store.ledger.message_ids(R, W) == {"m1"}
    assert store.ledger.message_ids(R, "other") == set()


def test_holds_extends_and_renew_extends_every_live_lease(store: Store) -> None:
    store.ledger.claim(R, W, D, "p", "a", T0, LEASE)
    store.ledger.claim(R, W, D, "q", "a", T0, LEASE)
    assert store.ledger.holds(R, W, D, "p", "a", T0 + LEASE - S, LEASE)
    assert store.ledger.renew("a", T0 + LEASE - S, LEASE) == 2
    assert not store.ledger.claim(R, W, D, "p", "b", T0 + 2 * LEASE - 2 * S, LEASE).held
    assert not store.ledger.holds(R, W, D, "p", "b", T0, LEASE)  # not b's
    assert store.ledger.renew("a", T0 + 5 * LEASE, LEASE) == 0  # ran out: nothing to renew


def test_release_lets_the_next_claimer_in_at_once(store: Store) -> None:
    store.ledger.claim(R, W, D, "p", "a", T0, LEASE)
    store.ledger.release(R, W, D, "p", "b", T0 + S)  # not b's to release
    assert not store.ledger.claim(R, W, D, "p", "b", T0 + S, LEASE).held
    store.ledger.release(R, W, D, "p", "a", T0 + S)
    assert store.ledger.claim(R, W, D, "p", "b", T0 + S, LEASE).held


def test_parts_and_record_of_an_unclaimed_part(store: Store) -> None:
    store.ledger.record(R, W, D, "_complete", "confirmed", None, T0)
    store.ledger.record(R, W, D, "_complete", "confirmed", None, T0)  # twice: no error
    assert store.ledger.parts(R, W, D) == {"_complete"}
    assert store.ledger.parts(R, W, "slack:C2") == set()


def test_gone_destinations_are_disabled_at_the_limit_and_reset_by_success(store: Store) -> None:
    assert not store.ledger.destination_failed("slack:CG", "gone", 2, T0)
    store.ledger.destination_ok("slack:CG")
    assert not store.ledger.destination_failed("slack:CG", "gone", 2, T0)
    assert store.ledger.destination_failed("slack:CG", "gone again", 2, T0)
    assert store.ledger.disabled() == {"slack:CG": "gone again"}
    assert store.ledger.disabled(since=T0 + timedelta(hours=1)) == {}  # due to be tried again
    store.ledger.destination_ok("slack:CG")  # a post went through: it is back
    assert store.ledger.disabled() == {}
    store.ledger.destination_failed("slack:CG", "gone", 1, T0)
    assert store.ledger.enable("slack:CG") and not store.ledger.enable("slack:CG")
    assert store.ledger.disabled() == {}


def test_a_lease_no_longer_holds_at_its_end(store: Store) -> None:
    store.ledger.claim(R, W, D, "p", "a", T0, LEASE)
    assert store.ledger.holds(R, W, D, "p", "a", T0 + LEASE - S, timedelta(seconds=1))
    assert not store.ledger.holds(R, W, D, "p", "a", T0 + LEASE, LEASE)  # ended exactly now
    assert store.ledger.renew("a", T0 + LEASE, LEASE) == 0


def test_a_takeover_changes_that_part_only(store: Store) -> None:
    store.ledger.claim(R, W, D, "p", "a", T0, LEASE)
    store.ledger.claim(R, W, D, "q", "a", T0, LEASE)
    assert store.ledger.claim(R, W, D, "p", "b", T0 + LEASE, LEASE).held
    assert store.ledger.claim(R, W, D, "q", "c", T0 + LEASE, LEASE).held  # not b's now


def test_release_gives_back_that_part_only(store: Store) -> None:
    store.ledger.claim(R, W, D, "p", "a", T0, LEASE)
    store.ledger.claim(R, W, D, "q", "a", T0, LEASE)
    store.ledger.release(R, W, D, "p", "a", T0 + S)
    assert store.ledger.claim(R, W, D, "p", "b", T0 + S, LEASE).held
    assert not store.ledger.claim(R, W, D, "q", "b", T0 + S, LEASE).held


def test_a_row_without_a_lease_is_taken_over(store: Store) -> None:
    """A claimed row from before leases existed (or written by `record`) has no holder."""
    store.ledger.record(R, W, D, "p", "claimed", None, T0)
    claim = store.ledger.claim(R, W, D, "p", "b", T0, LEASE)
    assert (claim.held, claim.new) == (True, False)


def test_lookups_stay_inside_their_repo_and_window(store: Store) -> None:
    store.ledger.record(R, W, D, "p", "sent", "m1", T0)
    store.ledger.record("other/repo", W, D, "p", "sent", "m2", T0)
    store.ledger.record(R, "other-window", D, "x", "sent", "m3", T0)
    store.ledger.claim(R, W, D, "unsent", "a", T0, LEASE)
    assert store.ledger.message_ids(R, W) == {"m1"}
    assert store.ledger.parts(R, W, D) == {"p", "unsent"}
    assert store.ledger.parts("other/repo", W, D) == {"p"}


def test_sent_records_that_part_alone_and_says_which_message_stands(store: Store) -> None:
    """Two parts in flight at once (two destinations posting side by side): recording one
    as sent leaves the other to be sent, and a second holder recording the same part later
    learns the message that stands is the first one (its own is a copy to remove)."""
    store.ledger.claim(R, W, D, "p", "a", T0, LEASE)
    store.ledger.claim(R, W, "discord:111", "p", "a", T0, LEASE)
    store.ledger.claim(R, W, D, "q", "a", T0, LEASE)
    assert store.ledger.sent(R, W, D, "p", "m1", T0) == "m1"
    assert store.ledger.claim(R, W, "discord:111", "p", "a", T0, LEASE).message_id is None
    assert store.ledger.claim(R, W, D, "q", "a", T0, LEASE).message_id is None
    assert store.ledger.parts(R, W, D) == {"p", "q"}
    assert store.ledger.sent(R, W, D, "p", "m2", T0 + S) == "m1"  # m2 is the copy
    assert store.ledger.claim(R, W, D, "p", "b", T0 + 10 * LEASE, LEASE).message_id == "m1"
    assert store.ledger.message_ids(R, W) == {"m1"}


def test_a_heartbeat_renews_its_own_live_leases_only(store: Store) -> None:
    """A live run's heartbeat must not keep a dead run's leases alive (its parts would wait
    forever), nor lease again a part already sent."""
    store.ledger.claim(R, W, D, "p", "dead", T0, LEASE)
    store.ledger.claim(R, W, D, "q", "live", T0, LEASE)
    store.ledger.claim(R, W, D, "s", "live", T0, LEASE)
    store.ledger.sent(R, W, D, "s", "m1", T0)
    assert store.ledger.renew("live", T0 + 20 * S, LEASE) == 1  # q alone
    taken = store.ledger.claim(R, W, D, "p", "live", T0 + LEASE, LEASE)  # dead's ran out
    assert taken.held
    assert not store.ledger.claim(R, W, D, "q", "other", T0 + LEASE, LEASE).held  # renewed
    assert not store.ledger.holds(R, W, D, "s", "live", T0 + S, LEASE)  # sent: no lease


def test_release_and_a_recorded_id_end_the_lease_of_that_unsent_part(store: Store) -> None:
    """A failed send gives its lease back (the next claimer gets it at once); a part
    recorded with its message id has no holder; a sent part is never released."""
    store.ledger.claim(R, W, D, "p", "a", T0, LEASE)
    store.ledger.release(R, W, D, "p", "a", T0 + S)
    assert store.ledger.claim(R, W, D, "p", "b", T0 + S, LEASE).held
    store.ledger.claim(R, W, D, "q", "a", T0, LEASE)
    store.ledger.record(R, W, D, "q", "sent", "m1", T0 + S)
    assert not store.ledger.holds(R, W, D, "q", "a", T0 + S, LEASE)
    store.ledger.release(R, W, D, "q", "a", T0 + 2 * S)
    assert store.ledger.claim(R, W, D, "q", "b", T0 + 2 * S, LEASE).message_id == "m1"


def test_a_destination_enabled_again_starts_counting_from_nothing(store: Store) -> None:
    """`doctor` enabling a destination forgets its failures: it takes the whole limit of new
    'gone' failures to disable it again, and the count is of failures tried since `since`."""
    for _ in range(3):
        store.ledger.destination_failed("slack:CG", "gone", 3, T0)
    assert store.ledger.enable("slack:CG")
    assert not store.ledger.destination_failed("slack:CG", "gone", 3, T0 + S)
    assert not store.ledger.destination_failed("slack:CG", "gone", 3, T0 + S)
    assert store.ledger.destination_failed("slack:CG", "gone", 3, T0 + 2 * S)
    assert store.ledger.disabled(since=T0 + 2 * S) == {"slack:CG": "gone"}  # tried at since
