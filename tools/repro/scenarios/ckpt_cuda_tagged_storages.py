"""CKPT-006: a checkpoint saved from GPU tensors, loaded on a torch without CUDA.

No GPU is needed to make one: the lab saves a CPU checkpoint and rewrites the location of each
storage in its pickled structure from "cpu" to "cuda:0" (tools/repro/ckpt_support.py,
tag_storages), which is what torch.save records for tensors on the first GPU.  Each rank first
runs the entry's own fix (torch.load with map_location onto the CPU) on that file, which loads;
then loads it as written without map_location: "Attempting to deserialize object on a CUDA
device but torch.cuda.is_available() is False".
"""

import torch

from tools.repro.ckpt_support import classifier, tag_storages, work_dir
from tools.repro.harness import BROKEN, Scenario, launch
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="checkpoint-cuda-device-unavailable",
    variant="cuda-tagged-storages-without-cuda",
    description="broken: storages tagged cuda:0 loaded on the CPU build; map_location runs first",
    expect="fail",
    role=BROKEN,
    key_text=(
        "fix: map_location loaded the cuda:0 checkpoint on cpu",
        "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False.",
    ),
    snippet=("map-location", "pytorch"),
)


def main(rank, world_size):
    torch.manual_seed(0)
    work_dir(rank)
    saved = classifier()
    torch.save({"model_state_dict": saved.state_dict()}, "cpu.pt")
    tagged = tag_storages("cpu.pt", "checkpoint.pt", "cuda:0")
    assert tagged >= 1, tagged

    model = classifier()
    names = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet), model=model)
    assert str(names["device"]) == "cpu"
    assert torch.equal(model.head.weight, saved.head.weight)
    print(f"rank {rank}: fix: map_location loaded the cuda:0 checkpoint on cpu ({tagged} tags)")

    torch.load("checkpoint.pt")
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch(main, SCENARIO)
