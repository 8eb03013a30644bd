"""Precedence in valid time and the slot timeline it builds: pure rules (the API tests are in
tests/integration/test_belief_time.py)."""
from __future__ import annotations

from datetime import UTC, datetime

from graph.beliefs.precedence import Contender, decide, wins
from graph.beliefs.timeline import State, place

NOW = datetime(2026, 11, 23, tzinfo=UTC)


def d(month: int, day: int, year: int = 2026) -> datetime:
    return datetime(year, month, day, tzinfo=UTC)


def dated(memory_id: str, start: datetime, until: datetime | None = None, trust: float = 1.0,
          recorded: datetime = NOW) -> Contender:
    return Contender(memory_id, "user_explicit", trust, recorded, start, until)


def test_at_equal_trust_the_later_valid_start_wins_whatever_the_arrival_order():
    pacific, india = dated("p", d(6, 27), recorded=d(7, 1)), dated("i", d(2, 16))
    assert wins(india, pacific) == (False, "older_valid_time")
    assert wins(pacific, india) == (True, "newer_valid_time")


def test_trust_still_comes_first():
    assert wins(dated("i", d(2, 16), trust=1.0), dated("p", d(6, 27), trust=0.6)) == (True, "higher_trust")
    loser = Contender("i", "document", 0.6, NOW, d(2, 16))
    assert wins(loser, dated("p", d(6, 27)))[1] == "trust_insufficient"


def test_undated_claims_compare_by_record_time_as_before():
    old = Contender("o", "document", 0.6, d(1, 1))
    assert wins(Contender("n", "document", 0.6, NOW), old) == (True, "equal_trust_newer")
    assert wins(old, Contender("n", "document", 0.6, NOW)) == (False, "equal_trust_older")
    # Against a dated state an undated claim counts from when it was recorded.
    assert wins(Contender("n", "document", 0.6, NOW), Contender("x", "document", 0.6, d(1, 1), d(6, 1))) == \
        (True, "newer_valid_time")


def test_an_older_state_is_accepted_as_history_not_quarantined():
    verdict = decide(dated("i", d(2, 16)), [dated("p", d(6, 27))], policy="supersede", on_conflict="quarantine")
    assert (verdict.status, verdict.supersede, verdict.history) == ("active", (), True)


def test_a_late_state_is_closed_at_the_next_later_start_and_spliced_into_the_chain():
    pacific, japan_history = dated("p", d(6, 27)), dated("j", d(5, 13), d(6, 27))
    nz = dated("n", d(5, 20))
    verdict = decide(nz, [pacific], policy="supersede", on_conflict="quarantine")
    plan = place(nz, verdict, [State(pacific, "active", False), State(japan_history, "superseded", True)], NOW)
    assert (plan.status, plan.valid_until, plan.replaced()) == ("superseded", d(6, 27), ())
    closed = {c.memory_id: (c.valid_until, c.status, c.successor_id, c.kind) for c in plan.closures}
    assert closed == {"n": (d(6, 27), "superseded", "p", "own"), "j": (d(5, 20), "superseded", "n", "history")}


def test_a_future_successor_leaves_the_present_active_with_its_window_closed():
    present, future = dated("p", d(6, 27)), dated("f", d(3, 1, 2099))
    verdict = decide(future, [present], policy="supersede", on_conflict="quarantine")
    plan = place(future, verdict, [State(present, "active", False)], NOW)
    assert (plan.status, plan.replaced()) == ("active", ())
    [closure] = plan.closures
    assert (closure.memory_id, closure.valid_until, closure.status, closure.kind) == \
        ("p", d(3, 1, 2099), "active", "rival")
    # Once that start has passed, the slot's next write retires it.
    later = place(dated("x", d(1, 1, 2100)), decide(dated("x", d(1, 1, 2100)), [], policy="supersede",
                                                    on_conflict="quarantine"),
                  [State(dated("p", d(6, 27), d(3, 1, 2099)), "active", True)], d(1, 2, 2100))
    assert [(c.memory_id, c.status, c.kind) for c in later.closures] == [("p", "superseded", "retired")]


def test_keep_both_and_pending_verdicts_take_no_place():
    new, old = dated("n", d(2, 16)), dated("o", d(6, 27))
    for policy, on_conflict in (("keep_both", "quarantine"), ("require_review", "quarantine")):
        verdict = decide(new, [old], policy=policy, on_conflict=on_conflict)
        plan = place(new, verdict, [State(old, "active", False)], NOW)
        assert (plan.closures, plan.superseded) == ((), ())
