"""The money arithmetic of a settlement, without a database (RULES §7, §8, §10)."""

from hypothesis import example, given, settings
from hypothesis import strategies as st

from games.engine.tests.examples import examples
from games.settlement.coin_plan import plan_coins, plan_points

# --- worked cases ------------------------------------------------------------------------


def test_rules_worked_example_pays_1950_and_charges_2050_with_200_in_fees():
    plan = plan_coins([4, -4, 4, -4], [5000] * 4, 500, 50)
    assert plan.net == [1950, -2050, 1950, -2050]
    assert plan.fees == 200
    assert plan.house == 0


def test_ping_kou_row_is_paid_by_the_house():
    plan = plan_coins([1, 0, 0, 1], [5000] * 4, 500, 50)
    assert plan.net == [450, -50, -50, 450]
    assert plan.fees == 200
    assert plan.house == -1000


def test_a_capped_loser_shrinks_the_winners_gains_not_the_house():
    plan = plan_coins([4, -4, 4, -4], [5000, 1000, 5000, 5000], 500, 50)
    # Seat 1 pays its fee, then only 950 of the 2000 it owes: 1050 shared off the gains.
    assert plan.net == [2000 - 525 - 50, -1000, 2000 - 525 - 50, -2050]
    assert plan.house == 0


def test_uneven_shrinking_gives_the_odd_coin_to_the_largest_remainder():
    plan = plan_coins([10, -6, 2, -6], [2000, 309, 2000, 2000], 100, 10)
    assert plan.net == [1000 - 251 - 10, -309, 200 - 50 - 10, -610]
    assert plan.house == 0


def test_a_shortfall_larger_than_all_gains_leaves_the_house_collecting_what_was_paid():
    # Everyone loses (not a real table row): nobody gains, so nothing can shrink; the
    # house takes the payments and pays nothing.
    plan = plan_coins([-4, -4, 0, 0], [100, 5000, 100, 100], 500, 50)
    assert plan.net == [-100, -2050, -50, -50]
    assert plan.fees == 200
    assert plan.house == 2050


def test_escape_penalty_is_shared_seventy_thirty_and_contributions_stand():
    plan = plan_coins([6, -2, -2, -2], [8000] * 4, 500, 50, escaper=1, penalty_units=12)
    assert plan.penalty_paid == 6000
    assert plan.compensation == [1400, 0, 1400, 1400]
    assert plan.net == [3000 - 50 + 1400, -1000 - 50 - 6000, -1000 - 50 + 1400,
                        -1000 - 50 + 1400]
    assert plan.fees == 200 + 1800
    assert plan.house == 0


def test_capped_escape_penalty_leaves_the_indivisible_remainder_to_the_fees():
    plan = plan_coins([0, 0, 0, 0], [5000, 4001, 5000, 5000], 500, 50, escaper=1,
                      penalty_units=12)
    assert plan.penalty_paid == 3951  # the hold less the fee
    assert plan.compensation == [921, 0, 921, 921]  # 70 % is 2765.7 → 2765, / 3 → 921 r 2
    assert plan.net == [871, -4001, 871, 871]
    assert plan.fees == 200 + 3951 - 3 * 921
    assert plan.house == 0


def test_the_penalty_comes_before_the_contributions_the_escaper_owes():
    plan = plan_coins([6, -2, -2, -2], [8000, 8000, 8000, 6050], 500, 50, escaper=3,
                      penalty_units=12)
    # Fee 50 and penalty 6000 empty the escaper's hold: its 1000 contribution is
    # missing and comes off seat 0's gain.
    assert plan.net == [3000 - 1000 - 50 + 1400, -1050 + 1400, -1050 + 1400, -6050]
    assert plan.house == 0


def test_an_escaper_owed_contributions_never_loses_more_than_was_frozen():
    # The escaper's 6-star bomb earns 3000, but the others only have 50 frozen each,
    # so the gain shrinks to nothing; the penalty takes the whole hold. The fee must
    # come out of what is left of the hold (nothing), not out of the hold again.
    plan = plan_coins([6, -2, -2, -2], [6000, 50, 50, 50], 500, 50, escaper=0,
                      penalty_units=12)
    assert plan.net[0] == -6000
    assert plan.net == [-6000, 1350, 1350, 1350]
    assert plan.house == 0


def test_points_are_score_times_stake_unit_with_the_house_taking_the_rest():
    assert plan_points([4, -4, 4, -4], 3) == ([12, -12, 12, -12], 0)
    assert plan_points([1, 0, 0, 1], 2) == ([2, 0, 0, 2], -4)
    assert plan_points([-5, -6, 1, 2], 10) == ([-50, -60, 10, 20], 80)


# --- properties -----------------------------------------------------------------------------

scores_strategy = st.lists(st.integers(-120, 120), min_size=4, max_size=4)
holds_strategy = st.lists(st.integers(0, 50_000), min_size=4, max_size=4)
coefficients = st.integers(0, 2000)
fees = st.integers(0, 500)
escapes = st.one_of(st.none(), st.tuples(st.integers(0, 3), st.integers(0, 24),
                                          st.integers(0, 100)))


def plan_for(scores, holds, coefficient, fee, escape):
    if escape is None:
        return plan_coins(scores, holds, coefficient, fee)
    seat, units, percent = escape
    return plan_coins(scores, holds, coefficient, fee, escaper=seat, penalty_units=units,
                      compensation_percent=percent)


@settings(max_examples=examples(600), deadline=None)
@given(scores_strategy, holds_strategy, coefficients, fees, escapes)
@example([6, -2, -2, -2], [6000, 50, 50, 50], 500, 50, (0, 12, 70))
@example([3, -1, -1, -1], [60, 60, 60, 60], 5, 50, (0, 12, 70))
def test_every_coin_plan_is_in_whole_coins_and_never_takes_more_than_the_hold(
        scores, holds, coefficient, fee, escape):
    # That a plan balances needs no test: plan_coins defines the house as what is left.
    plan = plan_for(scores, holds, coefficient, fee, escape)
    assert all(isinstance(value, int) for value in [*plan.net, plan.fees, plan.house])
    assert len(plan.net) == len(holds)
    for net, hold in zip(plan.net, holds):
        assert net >= -hold  # RULES §8: a loss is capped at what was frozen
    assert plan.fees >= 0
    assert plan.fees <= 4 * fee + plan.penalty_paid


@settings(max_examples=examples(600), deadline=None)
@given(scores_strategy, holds_strategy, coefficients, fees, escapes)
def test_the_house_never_pays_for_a_capped_loss(scores, holds, coefficient, fee, escape):
    plan = plan_for(scores, holds, coefficient, fee, escape)
    # The house pays at most the non-zero-sum part of the table (RULES §8) ...
    assert -plan.house <= max(0, sum(scores) * coefficient)
    if sum(scores) <= 0:
        assert plan.house >= 0


@settings(max_examples=examples(400), deadline=None)
@given(scores_strategy, coefficients, fees, escapes)
def test_with_ample_holds_every_player_gets_exactly_score_times_n_minus_a(
        scores, coefficient, fee, escape):
    penalty = escape[1] * coefficient if escape else 0
    ample = [abs(score) * coefficient + fee + penalty for score in scores]
    plan = plan_for(scores, ample, coefficient, fee, escape)
    compensation = plan.compensation
    for seat, score in enumerate(scores):
        expected = score * coefficient - fee + compensation[seat]
        if escape and seat == escape[0]:
            expected -= penalty
        assert plan.net[seat] == expected
    assert plan.house == -sum(scores) * coefficient
    assert plan.penalty_paid == penalty


@settings(max_examples=examples(400), deadline=None)
@given(scores_strategy, holds_strategy, coefficients, fees,
       st.integers(0, 3), st.integers(0, 24), st.integers(0, 100))
def test_the_escape_penalty_is_capped_and_shared_equally_with_the_rest_to_the_fees(
        scores, holds, coefficient, fee, escaper, units, percent):
    plan = plan_coins(scores, holds, coefficient, fee, escaper=escaper, penalty_units=units,
                      compensation_percent=percent)
    assert 0 <= plan.penalty_paid <= min(units * coefficient, holds[escaper])
    others = [plan.compensation[seat] for seat in range(4) if seat != escaper]
    assert plan.compensation[escaper] == 0
    assert len(set(others)) == 1
    shared = plan.penalty_paid * percent // 100
    assert shared - 2 <= sum(others) <= shared


@settings(max_examples=examples(400), deadline=None)
@given(st.lists(st.integers(1, 60), min_size=4, max_size=4), st.integers(1, 1000),
       st.integers(0, 100), st.integers(0, 3), st.integers(0, 3000))
def test_capped_losses_shrink_the_winners_gains_pro_rata(
        magnitudes, coefficient, fee, capped_seat, capped_hold):
    # Two winners and two losers with any scores (contributions make them uneven).
    scores = [magnitudes[0], -magnitudes[1], magnitudes[2], -magnitudes[3]]
    loser = 1 if capped_seat % 2 else 3
    holds = [10**9] * 4
    holds[loser] = capped_hold
    plan = plan_coins(scores, holds, coefficient, fee)
    owed = magnitudes[loser] * coefficient
    paid = max(0, min(owed, capped_hold - min(fee, capped_hold)))
    shortfall = owed - paid
    gains = [scores[0] * coefficient, scores[2] * coefficient]
    cut_total = min(shortfall, sum(gains))
    received = [plan.net[0] + fee, plan.net[2] + fee]
    cuts = [gain - got for gain, got in zip(gains, received)]
    assert sum(cuts) == cut_total
    for gain, cut in zip(gains, cuts):
        assert abs(cut * sum(gains) - gain * cut_total) < sum(gains)  # within one coin
    losses = (magnitudes[1] + magnitudes[3]) * coefficient
    if shortfall <= sum(gains):  # the house pays (or takes) only the table's imbalance
        assert plan.house == -sum(scores) * coefficient
    else:  # nothing left to shrink: the house keeps what the losers paid, pays nothing
        assert plan.house == losses - shortfall


# --- classic coin rooms: the winners share what the losers pay, the fee is 10 % of each
# winner's gain (RULES §9) -------------------------------------------------------------------

def classic_plan(scores, holds, coefficient, **escape):
    return plan_coins(scores, holds, coefficient, 0, fee_percent=10, winners_share=True,
                      **escape)


def test_classic_winners_share_what_the_losers_pay_less_ten_percent_each():
    # 双扣 at ×5 (the coin cap): 20 units each way, N = 100.
    plan = classic_plan([20, -20, 20, -20], [5000] * 4, 100)
    assert plan.net == [1800, -2000, 1800, -2000]
    assert plan.seat_fees == [200, 0, 200, 0]
    assert plan.fees == 400
    assert plan.house == 0


def test_a_classic_draw_moves_no_coins_the_losers_paying_nothing():
    # 平扣: 1st and 4th +1 each, 2nd and 3rd 0 — nothing is paid, so nothing is shared.
    plan = classic_plan([1, 0, 0, 1], [5000] * 4, 100)
    assert plan.net == [0, 0, 0, 0]
    assert (plan.fees, plan.house) == (0, 0)


def test_a_capped_classic_loser_leaves_the_winners_equal_shares_with_the_odd_coin_to_the_fees():
    # Seat 3 has 1001 frozen of the 2000 it owes: 3001 paid, 1500 each, 1 left over.
    plan = classic_plan([20, -20, 20, -20], [5000, 5000, 5000, 1001], 100)
    assert plan.net == [1500 - 150, -2000, 1500 - 150, -1001]
    assert plan.seat_fees == [150, 0, 150, 0]
    assert plan.fees == 300 + 1
    assert plan.house == 0


def test_the_classic_fee_is_rounded_down_in_the_winners_favour():
    plan = classic_plan([2, -2, 2, -2], [5000] * 4, 7)  # 14 each: 10 % is 1.4
    assert plan.seat_fees == [1, 0, 1, 0]
    assert plan.net == [13, -14, 13, -14]


def test_a_classic_escape_pays_the_penalty_shared_seventy_thirty_and_no_winner_fee():
    plan = classic_plan([0, 0, 0, 0], [5000] * 4, 100, escaper=2, penalty_units=20,
                        compensation_percent=70)
    assert plan.penalty_paid == 2000
    assert plan.compensation == [466, 466, 0, 466]  # 1400 / 3 → 466 r 2
    assert plan.net == [466, 466, -2000, 466]
    assert plan.seat_fees == [0, 0, 0, 0]
    assert plan.fees == 2000 - 3 * 466
    assert plan.house == 0


@settings(max_examples=examples(400), deadline=None)
@given(st.sampled_from([[4, 4, -4, -4], [2, -2, 2, -2], [1, 0, 0, 1]]),
       st.permutations(range(4)), st.integers(1, 5), st.lists(st.integers(0, 20_000),
                                                              min_size=4, max_size=4),
       st.integers(1, 1000), st.integers(0, 100))
def test_classic_coins_always_balance_with_nothing_from_the_house(
        row, order, multiplier, holds, coefficient, percent):
    scores = [0] * 4
    for place, seat in enumerate(order):
        scores[seat] = row[place] * multiplier
    plan = plan_coins(scores, holds, coefficient, 0, fee_percent=percent,
                      winners_share=True)
    winners = [seat for seat in range(4) if scores[seat] > 0]
    paid = -sum(plan.net[seat] for seat in range(4) if scores[seat] <= 0)
    assert plan.house == 0
    assert all(net >= -hold for net, hold in zip(plan.net, holds))
    gains = [plan.net[seat] + plan.seat_fees[seat] for seat in winners]
    assert len(set(gains)) <= 1  # equal shares
    assert 0 <= paid - sum(gains) < max(1, len(winners))  # the remainder is less than one each
    for seat in winners:
        assert plan.seat_fees[seat] == (plan.net[seat] + plan.seat_fees[seat]) * percent // 100
    assert sum(plan.net) + plan.fees == 0
