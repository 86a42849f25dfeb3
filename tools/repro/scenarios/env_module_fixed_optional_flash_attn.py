"""ENV-005 fix: the entry's plain-PyTorch snippet imports flash_attn only where it is
installed and falls back to torch's own scaled_dot_product_attention; the script first prints
the interpreter that runs it (the one to install into). Both ranks train an attention layer
for 3 steps with equal gradients across ranks."""

import torch
import torch.nn as nn

from tools.repro.harness import FIXED, Scenario, check_each_step, launch
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="python-module-not-found",
    variant="fixed-optional-import-with-fallback",
    description="fix (the entry's snippet): optional flash_attn import, SDPA fallback",
    expect="complete",
    role=FIXED,
    key_text=("attention without flash_attn: 3 steps, gradients equal across ranks",),
    snippet=("optional-import", "pytorch"),
)


class Attention(nn.Module):
    def __init__(self, attention):
        super().__init__()
        self.qkv = nn.Linear(8, 24)
        self.attention = attention

    def forward(self, x):  # x: (batch, seq, 8); two heads of 4
        q, k, v = self.qkv(x).view(x.shape[0], x.shape[1], 3, 2, 4).unbind(2)
        return self.attention(q, k, v).pow(2).mean()


def main(rank, world_size):
    names = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))
    assert names["flash_attn_func"] is None  # not installed here: the fallback is used
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(Attention(names["attention"]))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    steps = check_each_step(optimizer, model.module)
    torch.manual_seed(rank)
    for _ in range(3):
        optimizer.zero_grad()
        model(torch.randn(2, 5, 8)).backward()
        optimizer.step()
    assert len(steps) == 3, steps
    if rank == 0:
        print("attention without flash_attn: 3 steps, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
