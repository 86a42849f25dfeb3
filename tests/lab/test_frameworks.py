"""The entries' fixes in the real frameworks: Lightning 2.6.6, the Hugging Face Trainer
(transformers 5.24.0) and Accelerate 1.15.0, beside torch 2.13.0 on CPU (requirements-dev.txt).

Each broken scenario is a user's configuration that fails for real, in the framework's own
frames, and is captured into tests/corpus/; each fixed scenario renders the entry's snippet for
that framework as the wizard renders it and trains two CPU processes with it, asserting equal
gradients across ranks at every optimizer step. The scenarios run under torchrun only: the
frameworks read the ranks from its environment, as in a user's launch, and every run pays the
frameworks' imports (5 to 6 s a process).

The site never imports a framework: the last tests hold it to that, and read what the real
captures tell the wizard.
"""

import re
from pathlib import Path

import pytest

from tests.lab.lab import NEEDS_TORCH, run_and_check
from tools.repro.run import CORPUS_DIR

SEED = "ddp-expect-autograd-hooks-assert"
REPO_ROOT = Path(__file__).resolve().parents[2]
SITE = ("config", "kb", "wizard", "templates", "manage.py")
FRAMEWORKS_IMPORTED = re.compile(
    r"^\s*(?:import|from)\s+(?:lightning|pytorch_lightning|transformers|accelerate|deepspeed)\b",
    re.MULTILINE,
)

# --- ddp-expect-autograd-hooks-assert: static_graph with gradient accumulation ------------


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_static_graph_with_accumulate_grad_batches_trips_expect_autograd_hooks():
    output = run_and_check("fw_lightning_static_graph_accumulation", "torchrun").output
    assert 'reducer.cpp":1732' in output
    assert "lightning/pytorch/loops/optimization/automatic.py" in output


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_snippet_static_graph_off_trains_with_equal_gradients():
    run_and_check("fw_lightning_fixed_static_graph_off", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_hf_trainer_ddp_static_graph_with_gradient_accumulation_trips_expect_autograd_hooks():
    output = run_and_check("fw_hf_trainer_static_graph_accumulation", "torchrun").output
    assert 'reducer.cpp":1732' in output


@pytest.mark.slow
@NEEDS_TORCH
def test_hf_trainer_snippet_ddp_static_graph_false_trains_with_equal_gradients():
    run_and_check("fw_hf_trainer_fixed_static_graph_off", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_accelerate_static_graph_kwargs_with_accumulate_trips_expect_autograd_hooks():
    output = run_and_check("fw_accelerate_static_graph_accumulation", "torchrun").output
    assert 'reducer.cpp":1732' in output


@pytest.mark.slow
@NEEDS_TORCH
def test_accelerate_snippet_static_graph_false_trains_with_equal_gradients():
    run_and_check("fw_accelerate_fixed_static_graph_off", "torchrun")


# --- ddp-unused-params-prior-reduction: a layer no forward uses ----------------------------


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_unused_layer_without_find_unused_parameters_says_so_in_its_own_words():
    output = run_and_check("fw_lightning_unused_parameter", "torchrun").output
    assert "strategy='ddp_find_unused_parameters_true'" in output


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_snippet_ddp_find_unused_parameters_true_trains_with_equal_gradients():
    run_and_check("fw_lightning_fixed_find_unused_parameters", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_hf_trainer_unused_layer_with_find_unused_parameters_off_fails_the_prior_reduction():
    run_and_check("fw_hf_trainer_unused_parameter", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_hf_trainer_snippet_ddp_find_unused_parameters_true_trains_with_equal_gradients():
    run_and_check("fw_hf_trainer_fixed_find_unused_parameters", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_accelerate_unused_layer_without_find_unused_parameters_fails_the_prior_reduction():
    run_and_check("fw_accelerate_unused_parameter", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_accelerate_snippet_find_unused_parameters_true_trains_with_equal_gradients():
    run_and_check("fw_accelerate_fixed_find_unused_parameters", "torchrun")


# --- ddp-find-unused-parameters-perf-warning: find_unused_parameters with every parameter used


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_find_unused_all_used",
        "fw_hf_trainer_find_unused_all_used",
        "fw_accelerate_find_unused_all_used",
    ],
)
def test_find_unused_parameters_with_every_parameter_used_warns_in_each_framework(module):
    output = run_and_check(module, "torchrun").output
    assert "reducer.cpp" in output


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_fixed_find_unused_off",
        "fw_hf_trainer_fixed_find_unused_off",
        "fw_accelerate_fixed_find_unused_off",
    ],
)
def test_snippet_find_unused_off_trains_without_the_warning(module):
    output = run_and_check(module, "torchrun").output
    assert "did not find any unused parameters" not in output


# --- ddp-mark-variable-ready-twice: reentrant checkpointing with find_unused_parameters ---


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_reentrant_checkpoint_find_unused",
        "fw_hf_trainer_reentrant_checkpoint_find_unused",
        "fw_accelerate_reentrant_checkpoint_find_unused",
    ],
)
def test_reentrant_checkpoint_with_find_unused_parameters_marks_a_variable_ready_twice(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_fixed_reentrant_find_unused_off",
        "fw_hf_trainer_fixed_non_reentrant_checkpointing",
        "fw_accelerate_fixed_non_reentrant_checkpointing",
        "fw_accelerate_fixed_reentrant_find_unused_off",
        "fw_lightning_fixed_single_backward",
        "fw_accelerate_fixed_single_backward",
    ],
)
def test_snippets_for_reentrant_checkpointing_and_two_losses_train_with_equal_gradients(module):
    run_and_check(module, "torchrun")


# --- ddp-static-graph-graph-changed: a head that joins after static_graph's first step ----


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_static_graph_aux_head_later",
        "fw_hf_trainer_static_graph_aux_head_later",
        "fw_accelerate_static_graph_aux_head_later",
        "fw_lightning_static_graph_two_backwards",
        "fw_accelerate_static_graph_two_backwards",
    ],
)
def test_static_graph_with_a_late_head_or_two_backwards_says_the_graph_changed(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_fixed_static_graph_off_aux_head",
        "fw_hf_trainer_fixed_static_graph_off_aux_head",
        "fw_accelerate_fixed_static_graph_off_aux_head",
        "fw_lightning_fixed_static_graph_single_backward",
        "fw_accelerate_fixed_static_graph_single_backward",
    ],
)
def test_snippets_for_a_changing_graph_train_with_equal_gradients(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_accelerate_backward_of_two_losses_of_one_forward_marks_the_trunk_ready_twice():
    run_and_check("fw_accelerate_two_losses_two_backwards", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_two_manual_backwards_end_in_lightnings_unused_parameters_message():
    """Not the entry's text: the second manual_backward does not raise, the next forward finds
    the first reduction unfinished, and Lightning rewrites that error into its own words."""
    output = run_and_check("fw_lightning_two_losses_two_backwards", "torchrun").output
    assert "Expected to mark a variable ready only once" not in output


# --- ddp-no-trainable-params: a module with nothing to train, wrapped in DDP --------------


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_module_with_every_parameter_frozen_is_refused_in_its_ddp_strategy():
    output = run_and_check("fw_lightning_student_copied_from_frozen_teacher", "torchrun").output
    assert "lightning/pytorch/strategies/ddp.py" in output


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_snippet_keeping_the_frozen_teacher_inside_trains_with_equal_gradients():
    run_and_check("fw_lightning_fixed_frozen_teacher_inside", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_trainer_handing_its_frozen_teacher_to_its_accelerator_is_refused_in_prepare():
    output = run_and_check("fw_hf_trainer_teacher_prepared", "torchrun").output
    assert "accelerate/accelerator.py" in output


@pytest.mark.slow
@NEEDS_TORCH
def test_trainer_snippet_keeping_the_teacher_a_plain_module_trains_with_equal_gradients():
    run_and_check("fw_hf_trainer_fixed_teacher_kept_plain", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_accelerate_prepare_of_a_frozen_teacher_refuses_a_module_without_trainable_params():
    run_and_check("fw_accelerate_frozen_teacher_prepared", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_accelerate_snippet_keeping_the_teacher_out_of_prepare_trains_with_equal_gradients():
    run_and_check("fw_accelerate_fixed_do_not_wrap_frozen", "torchrun")


# --- dist-init-twice: init_process_group() beside the framework that already called it ------


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_module_creating_the_group_in_setup_is_refused_inside_lightnings_fit():
    output = run_and_check("fw_lightning_init_in_setup", "torchrun").output
    assert "in _call_setup_hook" in output


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_snippet_leaving_the_group_to_the_strategy_trains_with_equal_gradients():
    run_and_check("fw_lightning_fixed_init_once", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_init_process_group_after_the_accelerator_is_refused():
    run_and_check("fw_accelerate_init_after_accelerator", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_accelerate_snippet_leaving_the_group_to_the_accelerator_trains_with_equal_gradients():
    run_and_check("fw_accelerate_fixed_init_once", "torchrun")


# --- ddp-no-sync-misuse: an accumulation setting that differs between ranks -------------


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_accumulation_differs_per_rank",
        "fw_hf_trainer_accumulation_differs_per_rank",
        "fw_accelerate_accumulation_differs_per_rank",
    ],
)
def test_accumulation_steps_differing_between_ranks_hang_until_the_gloo_timeout(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_fixed_same_accumulation_every_rank",
        "fw_hf_trainer_fixed_same_accumulation_every_rank",
        "fw_accelerate_fixed_same_accumulation_every_rank",
    ],
)
def test_snippets_with_one_accumulation_setting_for_every_rank_train_with_equal_gradients(
    module,
):
    run_and_check(module, "torchrun")


# --- dist-default-pg-not-initialized: a distributed call before the framework made a group --


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_ddp_in_module_init",
        "fw_accelerate_rank_before_accelerator",
    ],
)
def test_a_distributed_call_before_the_framework_creates_the_group_finds_none(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_fixed_strategy_creates_group",
        "fw_accelerate_fixed_accelerator_first",
    ],
)
def test_snippets_leaving_the_group_to_the_framework_train_with_equal_gradients(module):
    run_and_check(module, "torchrun")


# --- collate-tensor-size-mismatch: samples of two shapes and the default collate -----------


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_fitting_on_samples_of_two_lengths_fails_in_the_worker_s_collate():
    run_and_check("fw_lightning_collate_variable_sizes", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_s_loader_with_the_plain_form_s_pad_collate_trains_with_equal_gradients():
    run_and_check("fw_lightning_fixed_pad_collate", "torchrun")


# --- ddp-uninitialized-lazy-params: a lazy layer no forward has materialised --------------


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_wrapping_a_lazy_module_in_ddp_is_refused_in_its_strategy():
    output = run_and_check("fw_lightning_lazy_module", "torchrun").output
    assert "lightning/pytorch/strategies/ddp.py" in output


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_snippets_dummy_forward_in_setup_trains_with_equal_gradients():
    run_and_check("fw_lightning_fixed_lazy_dummy_forward", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_accelerate_prepare_of_a_lazy_module_is_refused():
    run_and_check("fw_accelerate_lazy_module_prepared", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_accelerate_snippets_dummy_forward_before_prepare_trains_with_equal_gradients():
    run_and_check("fw_accelerate_fixed_lazy_dummy_forward", "torchrun")


# --- what the site may import, and what the real output tells it ---------------------------


def test_the_site_never_imports_a_framework():
    offenders = []
    for top in SITE:
        paths = [REPO_ROOT / top] if top.endswith(".py") else (REPO_ROOT / top).rglob("*.py")
        for path in paths:
            if FRAMEWORKS_IMPORTED.search(path.read_text("utf-8")):
                offenders.append(str(path.relative_to(REPO_ROOT)))
    assert offenders == []


UNUSED = "ddp-unused-params-prior-reduction"
PERF = "ddp-find-unused-parameters-perf-warning"
TWICE = "ddp-mark-variable-ready-twice"
CHANGED = "ddp-static-graph-graph-changed"
# A no_sync() window that differs between ranks shows as the collective timeout it ends in.
TIMEOUT = "gloo-collective-timeout"


@pytest.mark.content
@pytest.mark.parametrize(
    ("slug", "capture", "framework"),
    [
        (SEED, "lightning-static-graph-accumulation-torchrun.txt", "lightning"),
        (SEED, "hf-trainer-static-graph-accumulation-torchrun.txt", "hf_trainer"),
        (SEED, "accelerate-static-graph-accumulation-torchrun.txt", "accelerate"),
        (UNUSED, "lightning-unused-parameter-torchrun.txt", "lightning"),
        (UNUSED, "hf-trainer-unused-parameter-torchrun.txt", "hf_trainer"),
        (PERF, "lightning-find-unused-all-used-torchrun.txt", "lightning"),
        (TWICE, "lightning-reentrant-checkpoint-find-unused-torchrun.txt", "lightning"),
        (TWICE, "hf-trainer-reentrant-checkpoint-find-unused-torchrun.txt", "hf_trainer"),
        (TWICE, "accelerate-reentrant-checkpoint-find-unused-torchrun.txt", "accelerate"),
        (TWICE, "accelerate-two-losses-two-backwards-torchrun.txt", "accelerate"),
        (UNUSED, "lightning-two-losses-two-backwards-torchrun.txt", "lightning"),
        (
            "ddp-no-trainable-params",
            "accelerate-frozen-teacher-prepared-torchrun.txt",
            "accelerate",
        ),
        (
            "ddp-no-trainable-params",
            "lightning-student-copied-from-frozen-teacher-torchrun.txt",
            "lightning",
        ),
        # The Trainer subclass prepares its teacher in its own __init__: the traceback goes
        # from the script into Accelerate without a frame of transformers.
        ("ddp-no-trainable-params", "hf-trainer-teacher-prepared-torchrun.txt", "accelerate"),
        (TIMEOUT, "lightning-accumulation-differs-per-rank-torchrun.txt", "lightning"),
        (TIMEOUT, "accelerate-accumulation-differs-per-rank-torchrun.txt", "accelerate"),
        (CHANGED, "lightning-static-graph-aux-head-later-torchrun.txt", "lightning"),
        (CHANGED, "accelerate-static-graph-aux-head-later-torchrun.txt", "accelerate"),
        (CHANGED, "lightning-static-graph-two-backwards-torchrun.txt", "lightning"),
        (CHANGED, "accelerate-static-graph-two-backwards-torchrun.txt", "accelerate"),
        ("dist-init-twice", "lightning-init-in-setup-torchrun.txt", "lightning"),
        # No Lightning frame (the module's DDP(...) runs before fit): the Trainer's start-up
        # line, printed before the traceback, names it.
        (
            "dist-default-pg-not-initialized",
            "lightning-ddp-in-module-init-torchrun.txt",
            "lightning",
        ),
        ("ddp-uninitialized-lazy-params", "lightning-lazy-module-torchrun.txt", "lightning"),
        (
            "ddp-uninitialized-lazy-params",
            "accelerate-lazy-module-prepared-torchrun.txt",
            "accelerate",
        ),
        (
            "collate-tensor-size-mismatch",
            "lightning-sequences-of-two-lengths-torchrun.txt",
            "lightning",
        ),
    ],
)
def test_a_real_framework_capture_names_its_framework_and_entry(taxonomy, slug, capture, framework):
    from kb.diagnosis.repository import diagnose

    diagnosis = diagnose((CORPUS_DIR / slug / capture).read_text("utf-8"))
    assert diagnosis.verdict == "match"
    assert diagnosis.candidates[0].slug == slug
    assert diagnosis.facts["framework"].value == framework


@pytest.mark.parametrize(
    ("slug", "capture"),
    [
        (UNUSED, "accelerate-unused-parameter-torchrun.txt"),
        ("dist-init-twice", "accelerate-init-after-accelerator-torchrun.txt"),
        ("dist-default-pg-not-initialized", "accelerate-rank-before-accelerator-torchrun.txt"),
    ],
)
def test_accelerates_failure_outside_its_own_code_shows_no_frame_of_accelerate(
    taxonomy, slug, capture
):
    """Accelerate's prepared model is DDP itself, and the script calls torch.distributed
    itself: an error raised in the forward or in the script's own call has no Accelerate
    frame, so the paste cannot say the framework (the wizard asks)."""
    from kb.diagnosis.repository import diagnose

    diagnosis = diagnose((CORPUS_DIR / slug / capture).read_text("utf-8"))
    assert diagnosis.candidates[0].slug == slug
    assert "framework" not in diagnosis.facts


def test_a_warning_without_a_traceback_matches_but_cannot_name_accelerate(taxonomy):
    """The reducer's warning comes with no frame, and Accelerate prints no line of its own:
    the wizard asks for the framework."""
    from kb.diagnosis.repository import diagnose

    log = (CORPUS_DIR / PERF / "accelerate-find-unused-all-used-torchrun.txt").read_text("utf-8")
    diagnosis = diagnose(log)
    assert diagnosis.verdict == "match"
    assert diagnosis.candidates[0].slug == PERF
    assert "framework" not in diagnosis.facts


@pytest.mark.parametrize(
    ("slug", "capture"),
    [
        (PERF, "hf-trainer-find-unused-all-used-torchrun.txt"),
        ("dynamo-recompile-limit", "hf-trainer-compile-padded-to-longest-torchrun.txt"),
        ("ddp-torch-compile", "hf-trainer-ddp-optimizer-split-torchrun.txt"),
    ],
)
def test_the_trainer_s_metrics_name_it_in_a_log_without_a_traceback(taxonomy, slug, capture):
    """Warnings and log lines come with no frame; the metrics the Trainer logs at the end of
    train() ({'train_runtime': ...}) name it."""
    from kb.diagnosis.repository import diagnose

    diagnosis = diagnose((CORPUS_DIR / slug / capture).read_text("utf-8"))
    assert diagnosis.candidates[0].slug == slug
    assert diagnosis.facts["framework"].value == "hf_trainer"


def test_lightnings_start_up_lines_name_it_without_a_traceback(taxonomy):
    from kb.diagnosis.repository import diagnose

    log = (
        "GPU available: False, used: False\n"
        "TPU available: False, using: 0 TPU cores\n"
        "Initializing distributed: GLOBAL_RANK: 0, MEMBER: 1/2\n"
        "distributed_backend=gloo\n"
    )
    assert diagnose(log).facts["framework"].value == "lightning"


def test_the_trainer_s_logged_step_metrics_name_it(taxonomy):
    """transformers 4.x logs each step's metrics as a dict of floats, 4.38 and later with the
    gradient norm; a custom loop's own print of a loss is not the Trainer."""
    from kb.diagnosis.repository import diagnose

    for line in (
        "{'loss': 2.0491, 'learning_rate': 0.0001961913563176343, 'epoch': 0.28}",
        "{'loss': 1.3862, 'grad_norm': 0.5421, 'learning_rate': 4.9e-05, 'epoch': 0.1}",
    ):
        assert diagnose(line + "\n").facts["framework"].value == "hf_trainer"
    assert "framework" not in diagnose("{'loss': 2.0491, 'step': 12}\n").facts
