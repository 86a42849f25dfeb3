"""The static_graph + no_sync() accumulation failure, as it looks in a logged training run.

Same bug as hooks_static_graph_no_sync_first_step, inside a script that logs
with Python `logging`: an INFO line at start, an early WARNING about gradient
accumulation, then the failure logged at ERROR (logger.exception) before the
exception propagates and crashes the worker.
"""

import logging

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-expect-autograd-hooks-assert",
    variant="static-graph-no-sync-logging",
    description="logged run: INFO start, WARNING about accumulation, ERROR with the assert",
    expect="fail",
    key_text=(
        " INFO ",
        " WARNING ",
        " ERROR ",
        "RuntimeError: expect_autograd_hooks_ INTERNAL ASSERT FAILED at",
    ),
)

log = logging.getLogger("train")

GRADIENT_ACCUMULATION_STEPS = 4
STEPS = 3


def main(rank, world_size):
    logging.basicConfig(
        level=logging.INFO,
        format=f"%(asctime)s %(levelname)s [rank{rank}] %(name)s: %(message)s",
    )
    log.info(
        "starting training: world_size=%d backend=gloo static_graph=True steps=%d",
        world_size,
        STEPS,
    )

    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)), static_graph=True)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    if GRADIENT_ACCUMULATION_STEPS > 1:
        log.warning(
            "gradient_accumulation_steps=%d: gradients are all-reduced only on every %dth "
            "micro-batch (DDP no_sync)",
            GRADIENT_ACCUMULATION_STEPS,
            GRADIENT_ACCUMULATION_STEPS,
        )

    torch.manual_seed(rank)
    for step in range(STEPS):
        try:
            for micro_batch in range(GRADIENT_ACCUMULATION_STEPS):
                x, y = torch.randn(8, 4), torch.randn(8, 1)
                last = micro_batch == GRADIENT_ACCUMULATION_STEPS - 1
                if last:
                    loss = nn.functional.mse_loss(model(x), y) / GRADIENT_ACCUMULATION_STEPS
                    loss.backward()
                else:
                    with model.no_sync():
                        loss = nn.functional.mse_loss(model(x), y) / GRADIENT_ACCUMULATION_STEPS
                        loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        except RuntimeError:
            log.exception("training step %d failed (micro-batch %d)", step, micro_batch)
            raise
        log.info("step %d loss %.4f", step, loss.item())
    log.info("training finished")


if __name__ == "__main__":
    launch(main, SCENARIO)
