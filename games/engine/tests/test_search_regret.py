"""The search's regret against a many-sample reference (search_regret)."""

import json

import pytest

from games.engine import search_regret
from games.engine.ai import decide
from games.engine.search import candidate_actions, candidate_values

TINY = {"ruleset": "qq", "games": 1, "reference_samples": 3, "seed": "regret-test"}


@pytest.fixture(scope="module")
def found():
    return search_regret.searched_positions("qq", 1, "regret-test")


def test_every_position_kept_has_a_choice_and_its_candidates_start_with_the_experts(found):
    assert len(found) > 5
    for position in found:
        actions = candidate_actions(position)
        assert len(actions) > 1
        assert actions[0] == decide(position, bot="expert")
        assert len(set(actions)) == len(actions)


def test_candidate_values_cover_every_candidate_and_repeat_for_a_seed(found):
    position = found[0]
    first = candidate_values(position, 3, seed="a")
    assert list(first) == candidate_actions(position)
    assert candidate_values(position, 3, seed="a") == first
    assert candidate_values(position, 3, seed="b") != first
    with pytest.raises(ValueError, match="one sample at least"):
        candidate_values(position, 0)


def test_regret_is_measured_against_the_references_best(found, tmp_path):
    path = tmp_path / "reference.json"
    report = search_regret.run(**TINY, samples=2, reference_path=path)
    saved = json.loads(path.read_text())
    assert saved["asked"] == TINY
    assert len(saved["values"]) == report["positions"] == len(found)
    # Playing the best of the reference every time would have no regret; the expert's
    # choice is one of the candidates, so its regret is the mean gap to the best.
    gaps = [max(values.values()) - next(iter(values.values())) for values in saved["values"]]
    assert report["expert_regret"] == pytest.approx(sum(gaps) / len(gaps))
    assert report["regret"] >= 0
    assert 0 <= report["switched"] <= report["positions"]


def test_a_saved_reference_is_read_back_not_computed_again(tmp_path, monkeypatch):
    path = tmp_path / "reference.json"
    first = search_regret.run(**TINY, samples=2, reference_path=path)

    def refuse(*args, **kwargs):
        raise AssertionError("the reference was computed again")

    monkeypatch.setattr(search_regret, "reference", refuse)
    assert search_regret.run(**TINY, samples=2, reference_path=path) == first
    # Another seed for the search under test: other deals, the same reference.
    other = search_regret.run(**TINY, samples=2, reference_path=path, search_seed=1)
    assert other["expert_regret"] == first["expert_regret"]
    assert other["positions"] == first["positions"]


def test_a_reference_for_other_games_or_a_broken_file_is_refused(tmp_path, capsys):
    path = tmp_path / "reference.json"
    path.write_text(json.dumps({"asked": {**TINY, "games": 2}, "values": []}))
    with pytest.raises(ValueError, match="another reference"):
        search_regret.run(**TINY, samples=2, reference_path=path)
    path.write_text("{not json")
    with pytest.raises(SystemExit):
        search_regret.main(["--games", "1", "--reference-samples", "3", "--seed", "regret-test",
                            "--samples", "2", "--reference", str(path)])
    assert "is not a saved reference" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        search_regret.main(["--games", "0"])
    assert "must be at least 1" in capsys.readouterr().err


def test_the_command_prints_the_regrets(tmp_path, capsys):
    search_regret.main(["--games", "1", "--reference-samples", "3", "--seed", "regret-test",
                        "--samples", "2", "--reference", str(tmp_path / "r.json")])
    out = capsys.readouterr().out
    assert "search regret" in out and "the expert's choice" in out
