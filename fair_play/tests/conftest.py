import pytest

from ledger.audit import ledger_violations


@pytest.fixture(autouse=True)
def ledger_audit_clean_after(request):
    """Escapes move money at settlement: the ledger's audit is clean after every test."""
    if request.node.get_closest_marker("django_db") is None:
        yield
        return
    request.getfixturevalue("db" if not request.node.get_closest_marker("django_db")
                            .kwargs.get("transaction") else "transactional_db")
    yield
    assert ledger_violations() == []
