"""CKPT-007: resuming an optimizer whose parameter groups differ from the saved ones.

The checkpoint was saved with the backbone frozen, so the optimizer held only the head's two
parameters.  Each rank first runs the entry's own fix twice: on a checkpoint saved from an
optimizer of every parameter it restores the state, on the frozen-backbone one it starts a
fresh optimizer.  Then rank 0 resumes with every parameter in one group ("loaded state dict
contains a parameter group that doesn't match the size of optimizer's group") and rank 1 with
a decay and a no-decay group ("loaded state dict has a different number of parameter groups").
"""

import os

import torch

from tools.repro.ckpt_support import classifier, work_dir
from tools.repro.harness import BROKEN, Scenario, launch
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="optimizer-state-mismatch",
    variant="backbone-frozen-when-saved",
    description="broken: optimizer saved with the backbone frozen, resumed trained; fix runs first",
    expect="fail",
    role=BROKEN,
    key_text=(
        "fix: restored the state saved with every parameter; fresh optimizer for the frozen one",
        "ValueError: loaded state dict ",
    ),
    snippet=("rebuild-the-saved-param-groups", "pytorch"),
)


def save(model, params, path):
    optimizer = torch.optim.AdamW(params, lr=1e-3)
    model(torch.randn(8, 4)).backward()
    optimizer.step()
    torch.save(
        {"model_state_dict": model.state_dict(), "optimizer_state_dict": optimizer.state_dict()},
        path,
    )


def main(rank, world_size):
    torch.manual_seed(0)
    root = work_dir(rank)
    model = classifier()
    for name in ("all", "frozen"):
        os.makedirs(name)
    save(model, model.parameters(), os.path.join(root, "all", "checkpoint.pt"))
    save(model, model.head.parameters(), os.path.join(root, "frozen", "checkpoint.pt"))

    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    os.chdir(os.path.join(root, "all"))
    names = run_snippet(code, model=classifier())
    assert names["saved"] == names["current"] == [4] and names["optimizer"].state
    os.chdir(os.path.join(root, "frozen"))
    names = run_snippet(code, model=classifier())
    assert names["saved"] == [2] and not names["optimizer"].state
    print(
        f"rank {rank}: fix: restored the state saved with every parameter; "
        "fresh optimizer for the frozen one"
    )

    checkpoint = torch.load("checkpoint.pt")
    model = classifier()
    if rank == 0:
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    else:
        decay = [p for n, p in model.named_parameters() if n.endswith("weight")]
        no_decay = [p for n, p in model.named_parameters() if n.endswith("bias")]
        optimizer = torch.optim.AdamW(
            [{"params": decay}, {"params": no_decay, "weight_decay": 0.0}], lr=1e-3
        )
    optimizer.load_state_dict(checkpoint["optimizer_state_dict"])
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch(main, SCENARIO)
