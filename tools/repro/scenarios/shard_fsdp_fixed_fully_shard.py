"""SHARD-001 fix: the entry's FSDP2 snippet (fully_shard per layer, then the root) on the same
partly frozen model.

FSDP2 shards each parameter as a DTensor instead of one FlatParameter per unit, so frozen and
trainable parameters may share a unit; three steps run on gloo.
"""

from tools.repro.harness import FIXED, Scenario, launch
from tools.repro.shard_dev_support import count_steps, partly_frozen_stack, train_steps
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="fsdp-uniform-requires-grad",
    variant="fixed-fully-shard",
    description="fix (the entry's snippet): FSDP2 fully_shard trains a partly frozen model",
    expect="complete",
    role=FIXED,
    key_text=("fully_shard: 3 steps on a partly frozen model",),
    snippet=("fully-shard", "pytorch"),
)


def main(rank, world_size):
    model = partly_frozen_stack()
    names = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet), model=model)
    optimizer = names["optimizer"]
    steps = count_steps(optimizer)
    train_steps(names["model"], optimizer)
    assert len(steps) == 3
    assert not any(p.requires_grad for p in model.layers[0].parameters())
    if rank == 0:
        print("fully_shard: 3 steps on a partly frozen model")


if __name__ == "__main__":
    launch(main, SCENARIO)
