"""CKPT-001: load_state_dict with names that do not fit the model.

A checkpoint is saved as a training checkpoint ({"epoch", "model_state_dict",
"optimizer_state_dict"}) by code whose output layer is called "fc"; the code has since renamed it
"head".  Each rank first runs the entry's own fix (select the model entry, rename "fc." to
"head.") and checks that the weights arrived; then rank 0 loads the model entry as it is
(missing "head.*", unexpected "fc.*") and rank 1 passes the whole checkpoint dict (unexpected
"epoch", "model_state_dict", "optimizer_state_dict"), both raising "Error(s) in loading
state_dict for Classifier".
"""

import torch

from tools.repro.ckpt_support import classifier, work_dir
from tools.repro.harness import BROKEN, Scenario, launch
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="state-dict-missing-unexpected-keys",
    variant="renamed-head-and-whole-checkpoint-dict",
    description="broken: a renamed layer (rank 0), the whole checkpoint dict (rank 1); fix first",
    expect="fail",
    role=BROKEN,
    key_text=(
        "fix: loaded with the head renamed",
        "Error(s) in loading state_dict for Classifier:",
    ),
    snippet=("load-the-model-entry-with-matching-keys", "pytorch"),
)


def main(rank, world_size):
    torch.manual_seed(0)
    work_dir(rank)
    old = classifier(head="fc")
    optimizer = torch.optim.SGD(old.parameters(), lr=0.1)
    checkpoint = {
        "epoch": 3,
        "model_state_dict": old.state_dict(),
        "optimizer_state_dict": optimizer.state_dict(),
    }
    torch.save(checkpoint, "checkpoint.pt")

    model = classifier(head="head")
    run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet), model=model)
    assert torch.equal(model.head.weight, old.fc.weight)
    print(f"rank {rank}: fix: loaded with the head renamed")

    model = classifier(head="head")
    if rank == 0:
        model.load_state_dict(torch.load("checkpoint.pt")["model_state_dict"])
    else:
        model.load_state_dict(torch.load("checkpoint.pt"))
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch(main, SCENARIO)
