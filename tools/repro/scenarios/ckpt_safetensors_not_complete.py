"""CKPT-008: a .safetensors file that is not the complete file, loaded with safetensors 0.8.0.

Rank 0's model.safetensors is a Git LFS pointer (what a clone without LFS leaves), rank 1's the
first half of the real file (an interrupted download). Each rank first runs the entry's own fix
on the real file fetched again, rendered for where that rank's file came from: its header check
passes and the weights load into the model. The same check refuses the bad file; last, the bad
file is loaded as most code does, with load_file: "Error while deserializing header: header too
large" on rank 0, "incomplete metadata, file not fully covered" on rank 1 (the first rank to fail
ends the run, so a capture may show either).
"""

import os

import torch

from tools.repro.ckpt_support import classifier, lfs_pointer, truncate, work_dir
from tools.repro.harness import BROKEN, Scenario, launch
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="safetensors-header-invalid",
    variant="lfs-pointer-and-half-a-file",
    description="broken: an LFS pointer (rank 0), half a file (rank 1) as .safetensors; fix first",
    expect="fail",
    role=BROKEN,
    key_text=(
        "fix: the complete file loads, the header check refused the bad one",
        "safetensors._safetensors_rust.SafetensorError: Error while deserializing header: ",
    ),
    snippet=("fetch-the-complete-safetensors-file", "pytorch"),
)


def main(rank, world_size):
    from safetensors.torch import load_file, save_file

    torch.manual_seed(0)
    root = work_dir(rank)
    origin = "git_lfs" if rank == 0 else "url"
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, ckpt_file_origin=origin)

    saved = classifier()
    os.makedirs("fetched", exist_ok=True)
    os.chdir("fetched")
    save_file(saved.state_dict(), "model.safetensors")  # the complete file, fetched again
    model = classifier()
    run_snippet(code, model=model)
    assert torch.equal(model.head.weight, saved.head.weight)

    os.chdir(root)
    if rank == 0:
        lfs_pointer("model.safetensors")
    else:
        truncate(os.path.join("fetched", "model.safetensors"), "model.safetensors")
    try:
        run_snippet(code, model=classifier())
        raise AssertionError("the header check passed a file that is not complete")
    except ValueError as e:
        print(f"rank {rank}: header check: {e}")
    print(f"rank {rank}: fix: the complete file loads, the header check refused the bad one")

    load_file("model.safetensors")
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch(main, SCENARIO)
