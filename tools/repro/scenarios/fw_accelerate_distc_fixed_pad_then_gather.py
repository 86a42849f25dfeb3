"""Fix, in Accelerate: the entry's own snippet (pad_across_processes, then gather_for_metrics),
rendered as the wizard renders it, gathers the 4 predictions of rank 0 and the 3 of rank 1
under TORCH_DISTRIBUTED_DEBUG=DETAIL on two CPU processes under torchrun: every rank
all-gathers a tensor of the same shape, and every rank gets the same 8 values (rank 1's padded
with one zero). Nothing trains here, so there are no gradients to compare.
"""

import torch
import torch.distributed as dist

from tools.repro.accelerate_support import accelerate_on_this_machine
from tools.repro.fw_distc_support import uneven_predictions
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="dist-collective-mismatch-detail",
    variant="accelerate-fixed-pad-then-gather",
    description="fix in Accelerate 1.15.0, DETAIL: pad_across_processes, then gather_for_metrics",
    expect="complete",
    role=FIXED,
    key_text=("8 predictions gathered, equal across ranks",),
    env={"TORCH_DISTRIBUTED_DEBUG": "DETAIL"},
    launchers=("torchrun",),
    snippet=("same-collectives-on-every-rank", "accelerate"),
    preload=("accelerate",),
)


def main(rank, world_size):
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    with accelerate_on_this_machine():
        predictions = run_snippet(code, predictions=uneven_predictions(rank))["predictions"]
    expected = torch.cat([uneven_predictions(0), uneven_predictions(1), torch.zeros(1)])
    assert torch.equal(predictions, expected), predictions
    gathered = [torch.empty_like(predictions) for _ in range(world_size)]
    dist.all_gather(gathered, predictions)
    assert all(torch.equal(gathered[0], g) for g in gathered[1:]), "ranks differ"
    if rank == 0:
        print(f"{len(predictions)} predictions gathered, equal across ranks")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
