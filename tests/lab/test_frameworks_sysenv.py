"""The system and environment entries' fixes in the real frameworks (the Hugging Face Trainer
of transformers 5.24.0) on torch 2.13.0, CPU: the broken scenario is the user's configuration
failing with the entry's text, captured into tests/corpus/; the fixed one runs the entry's
snippet for that framework as the wizard renders it, on two processes under torchrun, with
equal gradients across ranks at every step.
"""

import pytest

from tests.lab.lab import NEEDS_TORCH, run_and_check

# --- python-module-not-found: flash_attention_2 asked for, flash_attn not installed --------


@pytest.mark.slow
@NEEDS_TORCH
def test_hf_flash_attention_2_without_flash_attn_is_refused_by_from_pretrained():
    output = run_and_check("fw_hf_trainer_sysenv_flash_attention_missing", "torchrun").output
    assert "the package for FlashAttention2 doesn't seem to be installed" in output


@pytest.mark.slow
@NEEDS_TORCH
def test_hf_trainer_snippet_sdpa_attention_trains_with_equal_gradients():
    output = run_and_check("fw_hf_trainer_sysenv_fixed_sdpa_attention", "torchrun").output
    assert "attention: sdpa" in output


# --- torch-not-compiled-with-cuda: GPU code on the CPU build of torch ----------------------


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    ("module", "text"),
    [
        ("fw_lightning_sysenv_accelerator_gpu_on_cpu_build", "No supported gpu backend found!"),
        (
            "fw_hf_trainer_sysenv_model_to_cuda_on_cpu_build",
            "AssertionError: Torch not compiled with CUDA enabled",
        ),
        (
            "fw_accelerate_sysenv_batch_to_cuda_on_cpu_build",
            "AssertionError: Torch not compiled with CUDA enabled",
        ),
    ],
)
def test_gpu_code_on_the_cpu_build_of_torch_is_refused_in_each_framework(module, text):
    assert text in run_and_check(module, "torchrun").output


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_sysenv_fixed_accelerator_auto",
        "fw_hf_trainer_sysenv_fixed_use_cpu_without_cuda",
        "fw_accelerate_sysenv_fixed_accelerator_device",
    ],
)
def test_snippets_choosing_the_device_from_availability_train_on_cpu_with_equal_gradients(module):
    run_and_check(module, "torchrun")


# --- torch-six-removed: an old DeepSpeed installed beside the framework --------------------


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    ("module", "where"),
    [
        ("fw_accelerate_sysenv_old_deepspeed_unwrap", "accelerate/utils/other.py"),
        ("fw_hf_trainer_sysenv_old_deepspeed_trainer", "transformers/trainer.py"),
    ],
)
def test_an_installed_old_deepspeed_breaks_each_framework_on_torch_six(module, where):
    output = run_and_check(module, "torchrun").output
    assert "No module named 'torch._six'" in output
    assert where in output


# --- rendezvous-connection-error / rendezvous-timeout: accelerate launch across nodes ------


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    ("module", "text"),
    [
        (
            "fw_accelerate_sysenv_rdzv_endpoint_not_served",
            "RendezvousConnectionError: The connection to the C10d store has failed.",
        ),
        (
            "fw_accelerate_sysenv_rdzv_second_machine_never_started",
            "torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError",
        ),
    ],
)
def test_accelerate_launch_fails_its_rendezvous_before_any_worker_starts(module, text):
    assert text in run_and_check(module, "spawn").output


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_accelerate_sysenv_fixed_rdzv_endpoint_served",
        "fw_accelerate_sysenv_fixed_one_machine_launch",
    ],
)
def test_accelerate_launch_with_nodes_that_start_and_meet_trains_with_equal_gradients(module):
    run_and_check(module, "spawn")


# --- host-out-of-memory-killed: loading a checkpoint without a second copy in memory -------


@pytest.mark.slow
@NEEDS_TORCH
def test_hf_snippet_from_pretrained_with_dtype_auto_loads_a_model_the_trainer_trains():
    output = run_and_check("fw_hf_trainer_sysenv_fixed_from_pretrained_meta", "torchrun").output
    assert "loaded: float32" in output


@pytest.mark.slow
@NEEDS_TORCH
def test_accelerate_snippet_init_empty_weights_then_dispatch_loads_the_saved_weights_and_trains():
    output = run_and_check(
        "fw_accelerate_sysenv_fixed_load_checkpoint_and_dispatch", "torchrun"
    ).output
    assert "built on meta, loaded on cpu, weights as saved" in output


# --- host-out-of-memory-killed: few DataLoader workers per rank ----------------------------


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_sysenv_fixed_two_loader_workers",
        "fw_hf_trainer_sysenv_fixed_two_loader_workers",
    ],
)
def test_snippets_with_two_loader_workers_per_rank_train_with_equal_gradients(module):
    run_and_check(module, "torchrun")
