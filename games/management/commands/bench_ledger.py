"""``manage.py bench_ledger --games 2000 --workers 4``: settle random four-player
coin games concurrently on the configured database and print the figures.

Worker processes (not threads: the ORM is CPU-bound and threads share one GIL)
first freeze every game's stakes, then settle every game, each phase timed on
its own; settlements/s and the settle latency are the headline. Then ``pgbench -N``
runs on the same database with as many clients (ledger.pgbench_reference), and the
ratio of the two says how much of the server's plain write rate a settlement gets,
whatever the machine. The audit runs at the end and must be clean.

The workers are forked, and a connection pool (settings.base.pooled_postgres) must
never cross a fork: a child that inherits it shares the parent's sockets (GUIDE). The
pools are closed before the fork, and each worker's at the end of each of its jobs.
"""

from __future__ import annotations

import multiprocessing
import random
import statistics
import uuid
from time import perf_counter

from django import db
from django.core.management.base import BaseCommand, CommandError

from accounts.models import User
from games.engine.cards import parse_cards
from games.engine.patterns import classify
from games.engine.presets import PRESETS
from games.engine.scoring import bomb_record, score_places
from games.settlement.posting import settle_game
from ledger.audit import ledger_violations
from ledger.pgbench_reference import PgbenchUnavailable, pgbench_tps
from ledger.services import freeze_game_coins, grant_coins

BOMBS = ["7 7 7 7", "9 9 9 9 9", "Q Q Q Q Q Q", "SJ SJ BJ", "5 5 5 5 5 5 5 BJ",
         "3 3 3 3 4 4 4 4 5 5 5 5"]
STAKE = 200_000


def random_scores(rng: random.Random) -> list[int]:
    """Scores of a plausible qq game: a random finishing order and a few bombs."""
    rules = PRESETS["qq"]
    finish = rng.sample(range(4), 4)
    bombs = [bomb_record(rng.randrange(4), classify(parse_cards(rng.choice(BOMBS)), rules))
             for _ in range(rng.randrange(3))]
    return score_places(rules, finish, bombs).scores


def _run_phase(job: tuple) -> tuple[list[float], list[str]]:
    """One worker's share of a phase: returns latencies (s) and errors."""
    phase, games = job
    users = {user.pk: user for user in User.objects.filter(
        pk__in={pk for game in games for pk in game[1]})}
    latencies, errors = [], []
    for key, seat_ids, scores in games:
        seats = [users[pk] for pk in seat_ids]
        started = perf_counter()
        try:
            if phase == "freeze":
                freeze_game_coins(game_key=key, stakes=[(user, STAKE) for user in seats])
            else:
                settle_game(game_key=key, players=seats, scores=scores, coins=True,
                            coefficient=100, fee=10)
        except Exception as error:  # report it; the audit decides whether money broke
            errors.append(f"{phase} {key}: {error!r}")
            continue
        latencies.append(perf_counter() - started)
    close_pools()  # this worker's own: closed while the worker can still say goodbye
    return latencies, errors


def close_pools() -> None:
    """Close every database connection of this process and its pool, if it has one:
    a process that forks next gives its children none to inherit, and they open
    their own pools on first use."""
    for connection in db.connections.all(initialized_only=True):
        connection.close()
        if getattr(connection, "pool", None) is not None:
            connection.close_pool()


class Command(BaseCommand):
    help = __doc__.splitlines()[0]

    def add_arguments(self, parser) -> None:
        parser.add_argument("--games", type=int, default=2000)
        parser.add_argument("--workers", type=int, default=4)
        parser.add_argument("--players", type=int, default=40)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--pgbench-seconds", type=int, default=10,
                            help="how long pgbench -N runs beside it (0: not at all)")

    def handle(self, *args, games: int, workers: int, players: int, seed: int,
               pgbench_seconds: int, **options) -> None:
        if games < 1 or workers < 1 or players < 4 or pgbench_seconds < 0:
            raise CommandError("need at least 1 game, 1 worker and 4 players, "
                               "and pgbench seconds of 0 or more")
        run = uuid.uuid4().hex[:8]
        rng = random.Random(seed)
        users = []
        for index in range(players):
            user = User.objects.create_user(username=f"bench-{run}-{index}")
            grant_coins(user=user, amount=10**9, key=f"grant:bench:{run}:{index}")
            users.append(user)
        plan = [(f"bench:{run}:{game}", [user.pk for user in rng.sample(users, 4)],
                 random_scores(rng)) for game in range(games)]
        self._count_statements(users[:4], rng, run)
        shares = [plan[number::workers] for number in range(workers)]
        close_pools()  # no connection, and no pool, may cross the fork
        failed = False
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for phase in ("freeze", "settle"):
                started = perf_counter()
                results = pool.map(_run_phase, [(phase, share) for share in shares])
                seconds = perf_counter() - started
                latencies = [value for values, _ in results for value in values]
                errors = [error for _, found in results for error in found]
                failed |= bool(errors)
                rate = self._report(phase, latencies, errors, seconds, workers)
        if pgbench_seconds:
            self._compare_with_pgbench(rate, clients=workers, seconds=pgbench_seconds)
        violations = ledger_violations()
        self.stdout.write("audit: clean" if not violations
                          else f"audit: {len(violations)} violation(s)")
        for violation in violations:
            self.stderr.write(violation)
        if violations or failed:
            raise CommandError("benchmark failed")

    def _count_statements(self, seats: list, rng: random.Random, run: str) -> None:
        """Settle two more games and print what the second's transaction sent: the statements,
        and the round trips (each send of one or more statements, with the BEGIN
        before the first and the COMMIT, which psycopg sends on their own). The
        posting is one of them, a call of ledger_post_legs: its statements run in the
        database and are not counted here (docs/ledger.md)."""
        for game in range(2):  # the first makes the players' point accounts
            freeze_game_coins(game_key=f"benchcount:{run}:{game}",
                              stakes=[(user, STAKE) for user in seats])
        settle_game(game_key=f"benchcount:{run}:0", players=seats,
                    scores=random_scores(rng), coins=True, coefficient=100, fee=10)
        sends = []

        def count(execute, sql, params, many, context):
            sends.append(sql)
            return execute(sql, params, many, context)

        with db.connection.execute_wrapper(count):
            settle_game(game_key=f"benchcount:{run}:1", players=seats,
                        scores=random_scores(rng), coins=True, coefficient=100, fee=10)
        statements = sum(len([part for part in sql.split("; ") if part.strip()])
                         for sql in sends)
        posted = any("ledger_post_legs(" in sql for sql in sends)
        self.stdout.write(f"settlement transaction: {statements} statements in "
                          f"{len(sends) + 2} round trips (BEGIN, {len(sends)} sends, COMMIT)"
                          f"{'; the posting is one call of ledger_post_legs' if posted else ''}")

    def _compare_with_pgbench(self, settlements_per_second: float, *, clients: int,
                              seconds: int) -> None:
        try:
            tps = pgbench_tps(clients=clients, seconds=seconds)
        except PgbenchUnavailable as error:
            self.stdout.write(f"pgbench: {error}")
            return
        self.stdout.write(f"pgbench -N ({clients} clients, {seconds} s, scale 1, same "
                          f"database): {tps:.0f} TPS")
        self.stdout.write(f"settlements/s ÷ pgbench TPS = {settlements_per_second / tps:.3f}")

    def _report(self, phase: str, latencies: list[float], errors: list[str], seconds: float,
                workers: int) -> float:
        """Print the phase's line; return its rate per second."""
        for error in errors[:10]:
            self.stderr.write(error)
        done = len(latencies)
        what = "settlements" if phase == "settle" else "game freezes (4 stakes each)"
        line = f"{phase}: {done} {what} by {workers} workers in {seconds:.2f} s = " \
               f"{done / seconds:.0f}/s"
        if done:
            ordered = sorted(latencies)
            p99 = ordered[min(done - 1, int(done * 0.99))]
            line += (f"; latency median {statistics.median(latencies) * 1000:.1f} ms, "
                     f"p99 {p99 * 1000:.1f} ms")
        self.stdout.write(line + (f"; {len(errors)} errors" if errors else ""))
        return done / seconds
