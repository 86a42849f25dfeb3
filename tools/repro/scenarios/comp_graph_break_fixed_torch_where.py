"""COMP-006 fix: the entry's plain-PyTorch snippet replaces the data-dependent if with
torch.where; with TORCH_LOGS=graph_breaks nothing is logged, Dynamo counts no graph break,
and training gives the eager results."""

from torch._dynamo.utils import counters

from tools.repro.comp_support import train_like_the_eager_gate
from tools.repro.harness import FIXED, Scenario, launch

SCENARIO = Scenario(
    slug="dynamo-graph-break",
    variant="fixed-torch-where",
    description="fix (the entry's snippet): torch.where instead of if x.sum() > 0, no graph break",
    expect="complete",
    role=FIXED,
    key_text=("torch.where: 3 steps, no graph break, same results as eager",),
    env={"TORCH_LOGS": "graph_breaks"},
    snippet=("remove-data-dependent-branch", "pytorch"),
)


def main(rank, world_size):
    train_like_the_eager_gate(SCENARIO, rank)
    assert not counters["graph_break"], dict(counters["graph_break"])
    if rank == 0:
        print("torch.where: 3 steps, no graph break, same results as eager")


if __name__ == "__main__":
    launch(main, SCENARIO)
