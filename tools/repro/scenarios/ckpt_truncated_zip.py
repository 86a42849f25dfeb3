"""CKPT-005: a checkpoint cut to half its size, as an interrupted download or save leaves it.

Each rank first runs the entry's own fix (save through a temporary file and os.replace, check
zipfile.is_zipfile before loading) on a complete checkpoint, which loads; then it copies the
first half of that file and loads the copy: "PytorchStreamReader failed reading zip archive:
failed finding central directory".
"""

import zipfile

import torch

from tools.repro.ckpt_support import classifier, truncate, work_dir
from tools.repro.harness import BROKEN, Scenario, launch
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="checkpoint-truncated-zip",
    variant="half-a-checkpoint",
    description="broken: the first half of a checkpoint; the atomic save and zip check run first",
    expect="fail",
    role=BROKEN,
    key_text=(
        "fix: saved atomically and loaded; the half copy is no zip archive",
        "PytorchStreamReader failed reading zip archive: failed finding central directory",
    ),
    snippet=("complete-copy-and-atomic-save", "pytorch"),
)


def main(rank, world_size):
    torch.manual_seed(0)
    work_dir(rank)
    model = classifier()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    names = run_snippet(
        fix_snippet(SCENARIO.slug, *SCENARIO.snippet), model=model, optimizer=optimizer
    )
    assert torch.equal(names["checkpoint"]["model_state_dict"]["head.weight"], model.head.weight)
    truncate("checkpoint.pt", "truncated.pt")
    assert not zipfile.is_zipfile("truncated.pt")
    print(f"rank {rank}: fix: saved atomically and loaded; the half copy is no zip archive")

    torch.load("truncated.pt")
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch(main, SCENARIO)
