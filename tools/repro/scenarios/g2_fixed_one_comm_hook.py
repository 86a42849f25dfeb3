"""Fix: the entry's snippet registers exactly one communication hook, right after wrapping.

The model of g2_comm_hook_twice, wrapped by the entry's plain-PyTorch one-comm-hook snippet
(DDP(model), then fp16_compress_hook once); the script registers no hook of its own, where the
broken run registered a second one and DDP refused it.  One step then runs through the wrapper
and the gradients, compressed to fp16 for the all-reduce, are equal across ranks.
"""

import torch
import torch.nn as nn

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-comm-hook-twice",
    variant="fixed-one-comm-hook",
    description="fix (the entry's snippet): one register_comm_hook call; completes, grads equal",
    expect="complete",
    role=FIXED,
    key_text=("1 step done with one comm hook, gradients equal across ranks",),
    snippet=("one-comm-hook", "pytorch"),
)


def main(rank, world_size):
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    model = run_snippet(code, model=net)["model"]
    hooks = [hook.__name__ for hook, _ in model._comm_hooks]
    assert hooks == ["fp16_compress_hook"], hooks
    torch.manual_seed(rank)
    model(torch.randn(8, 4)).sum().backward()
    # DDP wraps the same parameters: their gradients are the synced ones.
    assert grads_match_across_ranks(net), "gradients differ across ranks"
    if rank == 0:
        print("1 step done with one comm hook, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
