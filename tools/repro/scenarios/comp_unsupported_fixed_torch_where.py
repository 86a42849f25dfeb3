"""COMP-005 fix: the entry's plain-PyTorch snippet replaces the data-dependent if with
torch.where; compiled with fullgraph=True it traces as one graph and trains for 3 steps with
the same results as the eager function of comp_unsupported_fullgraph_data_branch."""

from tools.repro.comp_support import train_like_the_eager_gate
from tools.repro.harness import FIXED, Scenario, launch

SCENARIO = Scenario(
    slug="dynamo-unsupported",
    variant="fixed-torch-where",
    description="fix (the entry's snippet): torch.where instead of if x.sum() > 0, fullgraph=True",
    expect="complete",
    role=FIXED,
    key_text=("fullgraph=True with torch.where: 3 steps, same results as eager",),
    snippet=("tensor-ops-instead-of-python-branch", "pytorch"),
)


def main(rank, world_size):
    train_like_the_eager_gate(SCENARIO, rank)
    if rank == 0:
        print("fullgraph=True with torch.where: 3 steps, same results as eager")


if __name__ == "__main__":
    launch(main, SCENARIO)
