"""Matchpoints, standings and the Swiss pairing (pure)."""

from tournaments.matchpoints import SeatResult, matchpoints, standings
from tournaments.pairing import first_round, partners_of, swiss_round


def test_two_for_each_beaten_one_for_each_tie_against_the_same_hand_only():
    results = [SeatResult(1, 1, 0, 10, 4), SeatResult(1, 1, 0, 20, 2),
               SeatResult(1, 1, 0, 30, 2), SeatResult(1, 1, 0, 40, -1),
               # another seat's hand: never compared with seat 0's
               SeatResult(1, 1, 1, 50, 100)]
    points = {result.user: value for result, value in matchpoints(results).items()}
    assert points == {10: 6, 20: 3, 30: 3, 40: 0, 50: 0}


def test_standings_by_matchpoints_then_total_score_then_registration():
    results = [SeatResult(1, 1, 0, 1, 2), SeatResult(1, 1, 0, 2, 1),
               SeatResult(1, 2, 0, 1, -3), SeatResult(1, 2, 0, 2, 1),
               SeatResult(1, 1, 1, 3, 5), SeatResult(1, 1, 1, 4, 5)]
    ranked = standings(results, [4, 3, 2, 1, 9])
    # 1: 2+0 mp, score -1; 2: 0+2 mp, score 2; 3 and 4: 1 mp each, score 5, 4 registered first
    assert [(row.user, row.matchpoints, row.score, row.place) for row in ranked] == [
        (2, 2, 2, 1), (1, 2, -1, 2), (4, 1, 5, 3), (3, 1, 5, 4), (9, 0, 0, 5)]


def test_first_round_is_a_seeded_shuffle_of_everyone():
    tables = first_round(list(range(16)), 4, "seed")
    assert tables == first_round(list(range(16)), 4, "seed")
    assert sorted(user for table in tables for user in table) == list(range(16))
    assert len(tables) == 4 and all(len(table) == 4 for table in tables)


def test_swiss_groups_by_standing_and_changes_partners():
    ranked = list(range(8))
    first = swiss_round(ranked, 4, set())
    assert [sorted(table) for table in first] == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert partners_of(first[0]) == {frozenset((0, 3)), frozenset((1, 2))}
    seen = partners_of(first[0]) | partners_of(first[1])
    second = swiss_round(ranked, 4, seen)
    assert not (partners_of(second[0]) | partners_of(second[1])) & seen
    third = swiss_round(ranked, 4, seen | partners_of(second[0]) | partners_of(second[1]))
    assert not (partners_of(third[0]) | partners_of(third[1])) & (
        seen | partners_of(second[0]) | partners_of(second[1]))
