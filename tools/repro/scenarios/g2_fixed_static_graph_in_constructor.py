"""Fix: static_graph=True in the constructor, without find_unused_parameters (the entry's snippet).

The model of g2_set_static_graph_late and g2_static_graph_with_find_unused, trained by the
entry's plain-PyTorch static-graph-in-constructor snippet: static_graph is set when DDP is built,
so no _set_static_graph() comes too late and DDP has no warning about find_unused_parameters or
about static_graph being set again.  Gradients are compared across ranks after every optimizer
step.
"""

import warnings

import torch

from tools.repro.harness import (
    FIXED,
    Scenario,
    check_every_optimizer_step,
    launch,
)
from tools.repro.models import MLPLoss
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-static-graph-misc-warnings",
    variant="fixed-static-graph-in-constructor",
    description="the entry's snippet: DDP(model, static_graph=True); no warning, grads equal",
    expect="complete",
    role=FIXED,
    key_text=("3 steps done with static_graph, no warning, gradients equal across ranks",),
    snippet=("static-graph-in-constructor", "pytorch"),
)

STEPS = 3


def main(rank, world_size):
    torch.manual_seed(0)
    model = MLPLoss()
    steps = check_every_optimizer_step(model)
    torch.manual_seed(rank)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, scheduler="no")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        namespace = run_snippet(
            code, model=model, batch=torch.randn(8, 4), num_training_steps=STEPS
        )
    about_static_graph = [str(w.message) for w in caught if "static_graph" in str(w.message)]
    assert about_static_graph == [], about_static_graph
    assert namespace["model"].static_graph, "DDP was built without static_graph"
    assert len(steps) == STEPS, steps
    if rank == 0:
        print(f"{STEPS} steps done with static_graph, no warning, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
