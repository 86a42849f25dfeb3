"""The calibration: how much each kind of evidence counts, fitted on pastes whose answer is
known, and measured on pastes the fit did not see (kb/diagnosis/calibration.py, fitting.py)."""

import pytest
from django.core.management import call_command

from kb.diagnosis import fitting, repository
from kb.diagnosis.calibration import UNFITTED
from kb.models import Family
from kb.taxonomy.reading import TaxonomyError, read_taxonomy
from kb.taxonomy.store import load_taxonomy
from tests.samples import TRACEBACK

TOY_LINE = "ToyQueueOverflow: queue is full (capacity 64)"
STALL_LINE = "ToyStall: no batch for 60 s"


def option(slug, specific=True, **features):
    return fitting.Option(slug, slug.upper(), tuple(sorted(features.items())), specific)


def sample(label, *options, source="a/b", traceback=1.0, near_miss=False, corpus="field"):
    return fitting.Sample(
        name=f"{source}:{label}",
        corpus=corpus,
        source=source,
        label=label,
        options=options,
        none=(("bias", 1.0), ("traceback", traceback)),
        near_miss=near_miss,
    )


def prediction(confidence, right, specific=True):
    s = sample("x" if right else None, option("x", specific=specific, text_root=1.0))
    return fitting.Prediction(s, "x", confidence, "possible")


def test_the_fit_learns_which_kind_of_evidence_tells_the_failure_apart():
    samples = [
        sample("right", option("right", text_root=1.0), option("sibling", text_other=1.0))
        for _ in range(20)
    ] + [sample(None, option("anything", fulltext=1.0)) for _ in range(20)]
    coefficients = fitting.fit(samples)
    assert coefficients["text_root"] > coefficients["text_other"]
    calibration = fitting.calibration_of(coefficients, match=0.9)
    assert fitting.predict(calibration, samples[0]).top == "right"
    assert fitting.predict(calibration, samples[-1]).confidence < 0.5


def test_evidence_never_counts_against_an_entry():
    """A kind of evidence seen mostly on wrong candidates gets 0, not a negative weight."""
    samples = [
        sample("right", option("right", text_root=1.0), option("other", text_error=1.0))
        for _ in range(20)
    ]
    assert fitting.fit(samples)["text_error"] == 0.0


def test_the_fit_is_the_maximum_of_its_objective():
    """No small change of any free coefficient does better (the Newton steps are damped where
    a full step would overshoot: on the grown corpus one fold's fit once ran off)."""
    samples = [
        sample("right", option("right", text_root=6.0), option("sibling", fulltext=1.0))
        for _ in range(30)
    ] + [sample(None, option("x", text_other=0.2, fulltext=3.0)) for _ in range(30)]
    samples += [sample("y", option("y", text_other=4.0, fulltext=0.5)) for _ in range(3)]
    coefficients = fitting.fit(samples)
    designs = [fitting._design(s) for s in samples]
    theta = [coefficients[p] for p in fitting.PARAMETERS]
    best = fitting._objective(designs, theta, fitting.PENALTY)
    for i, value in enumerate(theta):
        for delta in (-1e-3, 1e-3):
            if value + delta < 0 and i < len(fitting.FEATURES):
                continue  # evidence coefficients stay non-negative
            nearby = theta[:i] + [value + delta] + theta[i + 1 :]
            assert fitting._objective(designs, nearby, fitting.PENALTY) <= best + 1e-12


def test_the_candidates_probabilities_add_up_to_at_most_one(taxonomy):
    diagnosis = repository.diagnose("\n".join(TRACEBACK))
    assert len(diagnosis.candidates) > 1
    assert sum(c.confidence for c in diagnosis.candidates) <= 1.0 + 0.001 * len(
        diagnosis.candidates
    )
    assert diagnosis.best.confidence == max(c.confidence for c in diagnosis.candidates)


def test_match_starts_at_the_lowest_confidence_that_is_right_often_enough():
    predictions = [prediction(0.99, True)] * 30 + [prediction(0.9, False)]
    predictions += [prediction(0.8, True)] * 10 + [prediction(0.5, False)] * 5
    assert fitting.match_threshold(predictions, precision=0.97) == 0.8


def test_where_no_confidence_is_precise_enough_match_keeps_the_best_half():
    predictions = [prediction(0.99, False)] + [prediction(0.9, True)] * 10
    predictions += [prediction(0.6, False)] * 3 + [prediction(0.5, True)] * 2
    assert fitting.match_threshold(predictions, precision=0.97) == 0.9


def test_a_threshold_cannot_rest_on_generic_evidence_alone():
    predictions = [prediction(0.99, False, specific=False)] + [prediction(0.9, True)] * 40
    assert fitting.match_threshold(predictions, precision=0.97) == 0.9


def test_folds_keep_every_source_whole_and_come_out_the_same_every_time():
    samples = [sample(None, source=f"owner/repo{i % 13}") for i in range(60)]
    folds = fitting.folds_of(samples, k=5)
    assert sorted(len(f) for f in folds) == sorted(len(f) for f in fitting.folds_of(samples, 5))
    assert sum(len(f) for f in folds) == 60
    sources = [{s.source for s in fold} for fold in folds]
    assert all(a.isdisjoint(b) for i, a in enumerate(sources) for b in sources[i + 1 :])
    assert [[s.name for s in f] for f in folds] == [
        [s.name for s in f] for f in fitting.folds_of(samples, k=5)
    ]


def test_expected_calibration_error_weighs_each_bin_by_its_size():
    predictions = [prediction(0.95, True)] * 9 + [prediction(0.95, False)]  # 90% right at 95%
    predictions += [prediction(0.25, False)] * 10  # 0% right at 25%
    assert fitting.expected_calibration_error(predictions) == pytest.approx(
        (10 * 0.05 + 10 * 0.25) / 20
    )


def test_the_figures_count_near_misses_and_the_precision_of_match():
    right = fitting.Prediction(sample("x", option("x")), "x", 0.99, "match")
    near = fitting.Prediction(sample(None, option("x"), near_miss=True), "x", 0.99, "match")
    outside = fitting.Prediction(sample(None, option("x")), "x", 0.2, "no_match")
    values = fitting.figures([right, near, outside])
    assert values["top-1 with match"] == 1.0
    assert values["negatives not match"] == 0.5
    assert values["near misses not match"] == 0.0
    assert values["match precision"] == 0.5


def test_a_taxonomy_without_a_calibration_uses_the_unfitted_one(toy_copy):
    (family,) = read_taxonomy(toy_copy).families
    assert family.document["calibration"] is None
    assert UNFITTED.verdict([]) == "no_match"


def _with_calibration(path, text):
    path.write_text(path.read_text("utf-8") + text, "utf-8")


def test_the_lint_refuses_a_calibration_that_leaves_out_a_kind_of_evidence(toy_copy):
    family_file = toy_copy / "families" / "toy" / "family.yaml"
    _with_calibration(
        family_file,
        "calibration:\n  fitted: by hand\n  coefficients:\n    - feature: text_root\n"
        "      coefficient: 1.0\n  none:\n    - feature: bias\n      coefficient: 0.5\n"
        "  match: 0.9\n  possible: 0.3\n  held_out:\n    - entry: no-such-entry\n      pastes: 1\n",
    )
    with pytest.raises(TaxonomyError) as refused:
        read_taxonomy(toy_copy)
    problems = "\n".join(refused.value.problems)
    assert "calibration coefficients lack" in problems and "fulltext" in problems
    assert "calibration none lack traceback" in problems
    assert "entries that do not exist: no-such-entry" in problems


@pytest.fixture
def toy_corpora(tmp_path):
    lab, field = tmp_path / "lab", tmp_path / "field"
    for slug, line in (("toy-queue-overflow", TOY_LINE), ("toy-consumer-stall", STALL_LINE)):
        (lab / slug).mkdir(parents=True)
        (lab / slug / "captured.txt").write_text(f"Traceback (most recent call last):\n{line}\n")
    (field / "toy-queue-overflow").mkdir(parents=True)
    (field / "_negative").mkdir()
    rows = ["file\tsource\ttorch\tcause\tnote"]
    for i in range(6):
        (field / "toy-queue-overflow" / f"t{i}.txt").write_text(f"step {i}\n{TOY_LINE}\n")
        rows.append(f"toy-queue-overflow/t{i}.txt\towner/repo{i}#{i}\t\tqueue too small\t")
        (field / "_negative" / f"n{i}.txt").write_text(f"ValueError: queue {i} is fine\n")
        rows.append(f"_negative/n{i}.txt\tother/repo{i}#{i}\t\tnot the queue\tnear miss of toy")
    (field / "SOURCES.tsv").write_text("\n".join(rows) + "\n")
    return lab, field


def test_refit_prints_the_figures_before_and_after_and_stores_the_fit(
    empty_kb, toy_copy, toy_corpora, settings, capsys
):
    settings.TAXONOMY_DIR = toy_copy
    load_taxonomy(toy_copy)
    lab, field = toy_corpora
    call_command("refit", "--lab", lab, "--field", field, "--folds", "2")
    printed = capsys.readouterr().out
    assert "Before (not fitted: run manage.py refit)" in printed
    assert "held-out fold 2" in printed and "ECE" in printed
    assert "calibration:" not in (toy_copy / "families/toy/family.yaml").read_text()

    call_command("refit", "--write", "--lab", lab, "--field", field, "--folds", "2")
    assert "calibration:" in (toy_copy / "families/toy/family.yaml").read_text()
    stored = Family.objects.get(slug="toy").parts["calibration"]
    assert stored["fitted"].startswith("2 lab files and 12 field pastes from 12 sources")
    assert [row["entry"] for row in stored["held_out"]] == ["toy-queue-overflow"]
    diagnosis = repository.diagnose(TOY_LINE)
    assert (diagnosis.best.slug, diagnosis.verdict) == ("toy-queue-overflow", "match")


def test_refit_refuses_a_corpus_folder_that_names_no_entry(empty_kb, toy_copy, toy_corpora):
    load_taxonomy(toy_copy)
    lab, field = toy_corpora
    (lab / "no-such-entry").mkdir()
    (lab / "no-such-entry" / "x.txt").write_text("x\n")
    with pytest.raises(Exception, match="names no published entry"):
        call_command("refit", "--lab", lab, "--field", field)


def test_staff_see_each_entrys_held_out_figures_beside_its_votes(client, taxonomy, staff):
    url = "/admin/wizard/feedback/accuracy/"
    assert client.get(url).status_code == 302
    client.force_login(staff)
    html = client.get(url).content.decode()
    calibration = repository.current_engine().config.calibration
    row = calibration.held_out[0]
    assert f'<tr id="{row["entry"]}">' in html
    assert f"<td>{row['pastes']}</td><td>{row['top1']}</td><td>{row['match']}</td>" in html
    assert "Accuracy by entry" in client.get("/admin/wizard/feedback/").content.decode()


def test_a_match_is_never_less_likely_than_not_however_precise_the_surer_answers():
    predictions = [prediction(0.99, True)] * 100 + [prediction(0.4, True)] * 3
    predictions += [prediction(0.6, True)] * 2
    assert fitting.match_threshold(predictions, precision=0.97) == 0.6
