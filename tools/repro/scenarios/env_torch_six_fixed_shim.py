"""ENV-006 fix: the entry's plain-PyTorch snippet, which takes ``inf`` and ``string_classes``
from the standard library where ``torch._six`` is gone, runs on torch 2.13 and the training
loop that clips gradients with it completes with equal gradients across ranks."""

import torch

from tools.repro.harness import FIXED, Scenario, check_each_step, launch
from tools.repro.models import LinearLoss
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="torch-six-removed",
    variant="fixed-standard-library-names",
    description="fix (the entry's snippet): math.inf and str instead of torch._six",
    expect="complete",
    role=FIXED,
    key_text=("clipped with inf-norm, gradients equal across ranks",),
    snippet=("replace-torch-six", "pytorch"),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(LinearLoss())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    steps = check_each_step(optimizer, model.module)
    names = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))
    assert isinstance("text", names["string_classes"])
    torch.manual_seed(rank)
    for _ in range(3):
        optimizer.zero_grad()
        model(torch.randn(8, 4)).backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, norm_type=names["inf"])
        optimizer.step()
    assert len(steps) == 3, steps
    if rank == 0:
        print("3 steps clipped with inf-norm, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
