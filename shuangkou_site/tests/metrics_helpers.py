"""Reading /metrics in tests: the samples of a scrape by name and labels."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

Samples = dict[tuple[str, frozenset], float]


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
