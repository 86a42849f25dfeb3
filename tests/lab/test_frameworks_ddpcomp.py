"""ddp-torch-compile's DDPOptimizer split in the real frameworks (Lightning 2.6.6, the Hugging
Face Trainer of transformers 5.24.0, Accelerate 1.15.0) on torch 2.13.0, CPU: each broken
scenario compiles a DDP model of just over 1 MiB of parameters as the framework does and shows
DDPOptimizer's split in its TORCH_LOGS output, captured into tests/corpus/; each fixed one runs
the entry's optimize_ddp = False snippet for that framework as the wizard renders it, on two
processes under torchrun: one graph, and equal gradients across ranks at every step.
"""

import pytest

from tests.lab.lab import NEEDS_TORCH, run_and_check


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_ddpcomp_ddp_optimizer_split",
        "fw_hf_trainer_ddpcomp_ddp_optimizer_split",
        "fw_accelerate_ddpcomp_ddp_optimizer_split",
    ],
)
def test_each_framework_compiling_a_ddp_model_has_ddp_optimizer_split_it_in_the_logs(module):
    output = run_and_check(module, "torchrun").output
    # The reason text is only torch._dynamo.explain's: the logs never print it.
    assert "DDPOptimizer intentional graph-break" not in output


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_ddpcomp_fixed_optimize_ddp_off",
        "fw_hf_trainer_ddpcomp_fixed_optimize_ddp_off",
        "fw_accelerate_ddpcomp_fixed_optimize_ddp_off",
    ],
)
def test_snippets_turning_optimize_ddp_off_compile_one_graph_with_equal_gradients(module):
    run_and_check(module, "torchrun")
