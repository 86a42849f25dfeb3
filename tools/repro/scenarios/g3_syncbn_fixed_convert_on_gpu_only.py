"""CFG-006 fix: convert to SyncBatchNorm only for GPU training.

Runs the entry's own plain-PyTorch snippet on the broken run's BatchNorm model: without CUDA it
skips the conversion, so the model keeps plain BatchNorm (each rank normalises with its own
batch statistics), DDP accepts it where it refused the converted model, and training proceeds
with equal gradients.
"""

import torch

from tools.repro.harness import FIXED, Scenario, check_each_step, launch
from tools.repro.scenarios.g3_syncbn_cpu_ddp import net
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="syncbn-misuse",
    variant="fixed-convert-on-gpu-only",
    description="fix (the entry's snippet): SyncBatchNorm only on GPUs; plain BatchNorm on CPU",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
    snippet=("syncbn-gpu-only", "pytorch"),
)


class Loss(torch.nn.Module):
    """The snippet's `model(batch)` is the loss, as in a script whose model computes it."""

    def __init__(self):
        super().__init__()
        self.net = net()

    def forward(self, batch):
        return self.net(batch).pow(2).mean()


def main(rank, world_size):
    torch.manual_seed(0)
    model = Loss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    steps = check_each_step(optimizer, model)
    torch.manual_seed(rank)
    batches = [torch.randn(8, 4) for _ in range(3)]
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    run_snippet(code, model=model, dataloader=batches, optimizer=optimizer)
    assert len(steps) == 3, steps
    if rank == 0:
        print("3 steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
