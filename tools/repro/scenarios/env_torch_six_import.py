"""ENV-006: a training script (or an old library it imports) reads ``torch._six``.

``torch._six`` was the Python 2/3 compatibility module; torch 2.0 removed it. Old DeepSpeed
(``from torch._six import inf``) and old apex (``string_classes``) still import it. Here the
import runs on each rank once the process group is up, as a library imported lazily by the
training step would, so every rank raises ModuleNotFoundError.
"""

import torch

from tools.repro.harness import Scenario, launch
from tools.repro.models import LinearLoss

SCENARIO = Scenario(
    slug="torch-six-removed",
    variant="from-torch-six-import-inf",
    description="from torch._six import inf on torch 2.13: ModuleNotFoundError on every rank",
    expect="fail",
    key_text=("ModuleNotFoundError: No module named 'torch._six'",),
)


def clip_gradients(model, max_norm):
    from torch._six import inf  # as DeepSpeed < 0.8.1 did in deepspeed/runtime/utils.py

    norm_type = inf if max_norm is None else 2.0
    return torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm or 1.0, norm_type)


def main(rank, world_size):
    model = torch.nn.parallel.DistributedDataParallel(LinearLoss())
    loss = model(torch.randn(8, 4))
    loss.backward()
    clip_gradients(model, 1.0)


if __name__ == "__main__":
    launch(main, SCENARIO)
