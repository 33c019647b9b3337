"""Reading /metrics in tests: the samples of a scrape by name and labels."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

from shuangkou_site.celery import app as celery_app

Samples = dict[tuple[str, frozenset], float]

# The tests' METRICS_TOKEN (production wants at least 32 characters).
TOKEN = "metrics-token-of-the-tests-0123456789abcdef"


def scrape_here() -> Samples:
    """/metrics of this process, through Django's test client, with TOKEN (which the
    test puts in settings.METRICS_TOKEN)."""
    response = Client(HTTP_HOST="127.0.0.1").get("/metrics",
                                                 HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200, response
    return parse_samples(response.content.decode())


def parse_samples(text: str) -> Samples:
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def sample(samples: Samples, name: str, **labels: str) -> float:
    """The value of one sample; 0 if the scrape has none (a counter never moved)."""
    return samples.get((name, frozenset(labels.items())), 0.0)


def total(samples: Samples, name: str) -> float:
    """The sum of every sample of ``name``, whatever its labels."""
    return sum(value for (found, _), value in samples.items() if found == name)


def label_values(samples: Samples, name: str, label: str) -> set[str]:
    return {dict(labels)[label] for (found, labels), _ in samples.items()
            if found == name and label in dict(labels)}


@contextmanager
def celery_broker(url: str) -> Iterator[None]:
    """This process's Celery app, and so the scrapes' queue depths, on the broker at
    ``url``, tasks no longer eager; as it was after the block."""
    kept = {"broker_url": celery_app.conf.broker_url,
            "task_always_eager": celery_app.conf.task_always_eager}
    celery_app.conf.update(broker_url=url, task_always_eager=False)
    try:
        yield
    finally:
        celery_app.conf.update(**kept)
