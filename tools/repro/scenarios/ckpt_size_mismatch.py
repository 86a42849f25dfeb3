"""CKPT-002: a 10-class checkpoint loaded into a classifier built for 3 classes.

Each rank first runs the entry's own fix (leave out only the entries whose shape differs and load
the rest) and checks that the body's weights arrived and the head was left out; then it loads
the whole checkpoint, which raises "size mismatch for head.weight" and "head.bias".
"""

import torch

from tools.repro.ckpt_support import classifier, work_dir
from tools.repro.harness import BROKEN, Scenario, launch
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="state-dict-size-mismatch",
    variant="ten-class-checkpoint-three-class-model",
    description="broken: a 10-class checkpoint into a 3-class head; the fix runs first",
    expect="fail",
    role=BROKEN,
    key_text=(
        "fix: loaded all but ['head.weight', 'head.bias']",
        "size mismatch for head.weight: copying a param with shape torch.Size([10, 16]) from "
        "checkpoint, the shape in current model is torch.Size([3, 16]).",
    ),
    snippet=("match-the-config-or-drop-the-resized-layers", "pytorch"),
)


def main(rank, world_size):
    torch.manual_seed(0)
    work_dir(rank)
    pretrained = classifier(num_classes=10)
    torch.save(pretrained.state_dict(), "pretrained.pt")

    model = classifier(num_classes=3)
    names = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet), model=model)
    assert torch.equal(model.body.weight, pretrained.body.weight)
    print(f"rank {rank}: fix: loaded all but {names['resized']}")

    model = classifier(num_classes=3)
    model.load_state_dict(torch.load("pretrained.pt"))
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch(main, SCENARIO)
