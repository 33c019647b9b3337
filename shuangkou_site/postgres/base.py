"""Django's PostgreSQL backend, its pool checking connections with
shuangkou_site.pool_check rather than a query at every borrow
(settings.base.pooled_postgres names this backend)."""

from __future__ import annotations

from django.db.backends.postgresql import base

from shuangkou_site.pool_check import check_idle_connection


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self):
        pool = super().pool
        # Django builds the pool with psycopg_pool's check (CONN_HEALTH_CHECKS) or none,
        # and takes no other: ours is set on the pool it built (psycopg-pool is pinned).
        if pool is not None and pool._check is not check_idle_connection:
            pool._check = check_idle_connection
        return pool
