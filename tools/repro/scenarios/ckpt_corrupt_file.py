"""CKPT-004: a file that is not a checkpoint, loaded as one.

Rank 0's model.pth is an HTML page (what downloading a file's web page saves), rank 1's is a Git
LFS pointer (what a clone without LFS leaves).  Each rank first loads its file with
weights_only=False and prints the error (pickle's "invalid load key, '<'." / "'v'."), then runs
the entry's own fix: its check_checkpoint refuses the bad file and passes the real checkpoint
fetched again, which loads.  Last, the bad file is loaded as most code does, with the default
weights_only=True: "Weights only load failed ... WeightsUnpickler error: Unsupported operand 60"
(the byte '<') on rank 0, 118 ('v') on rank 1.
"""

import os

import torch

from tools.repro.ckpt_support import classifier, html_page, lfs_pointer, work_dir
from tools.repro.harness import BROKEN, Scenario, launch
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="checkpoint-corrupt-file",
    variant="html-page-and-lfs-pointer",
    description="broken: an HTML page (rank 0), an LFS pointer (rank 1) as .pth; check first",
    expect="fail",
    role=BROKEN,
    key_text=(
        "fix: the real file loads, check_checkpoint refused the bad one",
        "Weights only load failed.",
        "Unsupported operand ",
    ),
    snippet=("fetch-the-real-file", "pytorch"),
)


def main(rank, world_size):
    torch.manual_seed(0)
    root = work_dir(rank)
    bad = os.path.join(root, "bad.pth")
    (html_page if rank == 0 else lfs_pointer)(bad)
    try:
        torch.load(bad, weights_only=False)
    except Exception as e:  # noqa: BLE001 (printed as the user sees it)
        print(f"rank {rank}: weights_only=False: {type(e).__module__}.{type(e).__name__}: {e}")

    saved = classifier()
    os.makedirs("fetched", exist_ok=True)
    os.chdir("fetched")
    torch.save(saved.state_dict(), "model.pth")  # the real file, downloaded again
    names = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))
    assert torch.equal(names["state_dict"]["head.weight"], saved.head.weight)
    try:
        names["check_checkpoint"](bad)
        raise AssertionError("check_checkpoint passed a file that is not a checkpoint")
    except ValueError as e:
        print(f"rank {rank}: check_checkpoint: {e}")
    print(f"rank {rank}: fix: the real file loads, check_checkpoint refused the bad one")

    torch.load(bad)
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch(main, SCENARIO)
