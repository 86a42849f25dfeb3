"""The first entry carries every fact of its source document as structured records.

Source: shared/seed/000_7c100766e5b03e6c.txt. Each test names the part of the seed it covers.
"""

import ast

from django.conf import settings

from kb.snippets import render_snippet
from tests.conftest import variables_of

VARIABLES = variables_of(settings.TAXONOMY_DIR)


def test_identity_title_and_summary(seed):
    assert seed.code == "DDP-001"
    assert seed.status == "published"
    assert seed.title == (
        "DistributedDataParallel raises an internal reducer assertion when a backward pass "
        "arrives unexpectedly"
    )
    assert "autograd hooks fire while the reducer is not armed" in seed.summary
    assert "backward counting or synchronisation-context mismatches" in seed.summary
    assert "not by a defect in PyTorch" in seed.summary
    assert [c.slug for c in [*seed.category.ancestors(), seed.category]] == [
        "distributed-training",
        "ddp-reducer",
    ]


def test_explanation_keeps_both_paragraphs_of_the_mechanism(seed):
    for fact in (
        "arms itself for exactly one backward pass per forward",
        "invites you to file a PyTorch bug",
        "overlaps gradient reduction with the backward computation",
        "breaks the bookkeeping rather than the mathematics",
    ):
        assert fact in seed.explanation


def test_every_symptom(seed):
    symptoms = [symptom.text for symptom in seed.symptoms.all()]
    assert len(symptoms) == 4
    for fragment, symptom in zip(
        (
            "asks you to report a bug to PyTorch",
            "trains correctly on a single GPU and only fails once wrapped in DDP",
            "after enabling gradient checkpointing or a static graph",
            "points into C++ reducer internals",
        ),
        symptoms,
        strict=True,
    ):
        assert fragment in symptom


def test_the_four_trigger_contexts_with_stable_keys(seed):
    triggers = {trigger.key: trigger.text for trigger in seed.triggers.all()}
    assert list(triggers) == [
        "static_graph",
        "reentrant_checkpointing",
        "no_sync_mismatch",
        "multiple_backward",
    ]
    assert "one unchanging backward per iteration" in triggers["static_graph"]
    assert "forward is re-run during backward" in triggers["reentrant_checkpointing"]
    assert "opposite sides of the context" in triggers["no_sync_mismatch"]
    assert "several tensors, each backwarded separately" in triggers["multiple_backward"]


def test_the_checklist_and_what_each_positive_answer_means(seed):
    assert "positive signal" in seed.checklist_intro
    assert "rather than at a sibling" in seed.checklist_intro
    checks = {check.key: check for check in seed.checks.select_related("confirms")}
    assert "Count the backward calls per forward" in checks["multiple_backward"].how_to_check
    assert "is the condition the assertion describes" in checks["multiple_backward"].positive_means
    assert "Disable static_graph" in checks["static_graph"].how_to_check
    assert "strict static-graph contract" in checks["static_graph"].positive_means
    assert "Disable gradient checkpointing" in checks["reentrant_checkpointing"].how_to_check
    assert "one of the two enabled but not both" in checks["reentrant_checkpointing"].positive_means
    for key, check in checks.items():
        assert check.confirms.key == key, "the check that confirms a trigger carries its key"
        assert check.question.endswith("?")


def test_each_fix_says_why_it_works_and_which_trigger_it_resolves(seed):
    fixes = {fix.key: fix for fix in seed.fixes.prefetch_related("resolves", "snippets")}
    resolved = {key: sorted(t.key for t in fix.resolves.all()) for key, fix in fixes.items()}
    assert resolved == {
        "single-backward": ["multiple_backward"],
        "non-reentrant-checkpointing": ["reentrant_checkpointing"],
        "align-no-sync": ["no_sync_mismatch"],
        "static-graph-off": ["no_sync_mismatch", "static_graph"],
    }
    assert "restores the one-backward-per-forward assumption" in fixes["single-backward"].why
    assert "without re-running the forward" in fixes["non-reentrant-checkpointing"].why
    assert "expectation and the actual sequence agree again" in fixes["align-no-sync"].why
    assert "rather than suppressing the check" in seed.fixes_note
    for fix in fixes.values():
        frameworks = [snippet.framework.key for snippet in fix.snippets.all()]
        assert frameworks[0] == "pytorch"
        for snippet in fix.snippets.all():
            ast.parse(render_snippet(snippet.code, VARIABLES))


def test_the_reentrant_checkpointing_fix_passes_use_reentrant_false(seed):
    fix = seed.fixes.get(key="non-reentrant-checkpointing")
    for snippet in fix.snippets.all():
        assert "use_reentrant" in snippet.code and "False" in render_snippet(
            snippet.code, VARIABLES
        )


def test_both_sample_output_lines_of_the_seed(seed):
    lines = [line.text for line in seed.sample_lines.all()]
    assert lines[:2] == [
        '[rank0]: RuntimeError: expect_autograd_hooks_ INTERNAL ASSERT FAILED at "../torch/csrc/'
        'distributed/c10d/reducer.cpp":1603, please report a bug to PyTorch.',
        "[rank0]: No no_sync() context - works without error",
    ]


def test_the_fingerprint_is_info_then_warn_then_the_error(seed):
    steps = [(step.level, step.pattern) for step in seed.fingerprint.all()]
    assert steps == [
        ("INFO", ""),
        ("WARNING", ""),
        ("ERROR", "expect_autograd_hooks_ INTERNAL ASSERT FAILED"),
    ]
    assert "Timestamps and exact values vary across runs" in seed.fingerprint_note
    assert "The Denpex platform flags this combination automatically." in seed.fingerprint_note


def test_signatures_name_the_assert_without_depending_on_its_line_number(seed):
    by_kind = {}
    for signature in seed.signatures.all():
        by_kind.setdefault(signature.kind, []).append(signature.pattern)
    assert by_kind["literal"] == ["expect_autograd_hooks_ INTERNAL ASSERT FAILED"]
    assert by_kind["assert_site"] == ["torch/csrc/distributed/c10d/reducer.cpp"]
    assert by_kind["exception"] == ["RuntimeError"]
    [assert_line] = [p for p in by_kind["regex"] if "INTERNAL ASSERT" in p]
    assert r"\d+" in assert_line


def test_the_typical_training_loop_is_the_base_snippet(seed):
    ast.parse(seed.base_loop)
    for line in (
        "optimizer = optim.AdamW(model.parameters(), lr=3e-4)",
        "scheduler = optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=num_training_steps)",
        "for step in range(num_training_steps):",
        "    optimizer.zero_grad()",
        "    loss = model(batch)",
        "    loss.backward()",
        "    optimizer.step()",
        "    scheduler.step()",
    ):
        assert line in seed.base_loop.splitlines()


def test_the_note_on_adapting_the_loop_to_frameworks(seed):
    assert [f.key for f in seed.base_loop_frameworks.all()] == [
        "lightning",
        "hf_trainer",
        "deepspeed",
        "megatron",
        "vllm",
    ]
    assert "prefer the flag over the imperative API" in seed.base_loop_note
    assert "declarative and reproducible" in seed.base_loop_note
    flag = seed.config_flags.get()
    assert (flag.framework.key, flag.flag) == ("hf_trainer", 'lr_scheduler_type="cosine"')


def test_each_trigger_records_where_it_was_tried(seed):
    """The lab's findings on torch 2.13.0 (tools/repro/README.md) and the reference's."""
    triggers = {trigger.key: trigger for trigger in seed.triggers.all()}
    assert "2.13.0" in triggers["static_graph"].verified_on
    assert "2.13.0" in triggers["no_sync_mismatch"].verified_on
    assert "2.13.0" in triggers["reentrant_checkpointing"].not_reproduced_on
    assert "no_sync()" in triggers["multiple_backward"].note
