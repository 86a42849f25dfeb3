"""DEV-001 fix: the entry's snippet, the model and every batch on one device (the CPU here:
dev_target_device="cpu").

The snippet moves the model, then each batch's inputs and targets, to the chosen device and
trains; three steps run and every parameter is on that device.
"""

import torch
import torch.nn as nn

from tools.repro.harness import FIXED, Scenario, launch
from tools.repro.shard_dev_support import count_steps
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="tensors-on-different-devices",
    variant="fixed-one-device",
    description="fix (the entry's snippet): model and batches moved to one device (cpu)",
    expect="complete",
    role=FIXED,
    key_text=("device cpu: 3 steps",),
    snippet=("one-device-for-model-and-data", "pytorch"),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    steps = count_steps(optimizer)
    dataloader = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(3)]
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, dev_target_device="cpu")
    names = run_snippet(
        code,
        model=model,
        dataloader=dataloader,
        optimizer=optimizer,
        loss_fn=nn.functional.mse_loss,
    )
    assert len(steps) == 3
    assert all(p.device == names["device"] for p in names["model"].parameters())
    if rank == 0:
        print(f"device {names['device']}: 3 steps")


if __name__ == "__main__":
    launch(main, SCENARIO)
