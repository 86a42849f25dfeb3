"""Lightning and a checkpoint saved from GPU tensors, on torch 2.13.0 without CUDA: last.ckpt is a
checkpoint whose storages are tagged cuda:0 (tools.repro.ckpt_support.tag_storages), which a
plain torch.load refuses ("Attempting to deserialize object on a CUDA device"). Lightning 2.6.6
does not: load_from_checkpoint without map_location moves them to the CPU itself. The entry's
own Lightning snippet (map_location=torch.device("cpu")), rendered as the wizard renders it,
loads it too, and the module trains on two CPU processes under torchrun with gradients equal
across ranks at every optimizer step.
"""

import os

import torch
import torch.distributed as dist

from tools.repro.ckpt_support import tag_storages
from tools.repro.framework_support import report_equal_gradients
from tools.repro.fw_ckpt2_support import (
    fit_checked,
    lit_module_class,
    save_lightning_checkpoint,
    shared_dir,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="checkpoint-cuda-device-unavailable",
    variant="lightning-fixed-map-location-cpu",
    description="Lightning 2.6.6: a cuda:0-tagged last.ckpt loads; the snippet's map_location too",
    expect="complete",
    role=FIXED,
    key_text=(
        "torch.load: Attempting to deserialize object on a CUDA device",
        "load_from_checkpoint without map_location: loaded on cpu",
        "optimizer steps, gradients equal across ranks",
    ),
    launchers=("torchrun",),
    snippet=("map-location", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    root = shared_dir()
    LitModel = lit_module_class(rank)
    saved = LitModel()
    save_lightning_checkpoint(saved, world_size, "cpu.ckpt")
    os.makedirs(f"rank{rank}", exist_ok=True)
    os.chdir(f"rank{rank}")
    assert tag_storages(os.path.join(root, "cpu.ckpt"), "last.ckpt", "cuda:0") >= 1
    try:
        torch.load("last.ckpt", weights_only=False)
        raise AssertionError("the tagged checkpoint loaded without map_location")
    except RuntimeError as e:
        if rank == 0:
            print(f"torch.load: {e}")
    plain = LitModel.load_from_checkpoint("last.ckpt")
    if rank == 0:
        print(f"load_from_checkpoint without map_location: loaded on {plain.device}")
    model = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet), LitModel=LitModel)["model"]
    assert torch.equal(model.net[0].weight, saved.net[0].weight)
    dist.barrier()
    report_equal_gradients(fit_checked(model, world_size), rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
