"""CKPT-003 fix, for a file from a trusted source: the entry's snippet as the wizard renders it
for ckpt_trusted_source=yes, which also loads the file with weights_only=False.

The same checkpoint as ckpt_weights_only_global (weights and a HParams dataclass); every load of
the snippet succeeds, the weights arrive, and the checkpoint it saves at the end holds only plain
values, which load with the default weights_only=True and no allowlist.
"""

import torch

from tools.repro.ckpt_support import HParams, classifier, work_dir
from tools.repro.harness import FIXED, Scenario, launch
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="torch-load-weights-only",
    variant="fixed-trusted-source",
    description="fix (the entry's snippet, trusted source): weights_only=False and the allowlist",
    expect="complete",
    role=FIXED,
    key_text=("trusted: 3 loads done, plain checkpoint loads with weights_only=True",),
    snippet=("allowlist-the-globals", "pytorch"),
)


def main(rank, world_size):
    torch.manual_seed(0)
    work_dir(rank)
    saved = classifier()
    torch.save({"model_state_dict": saved.state_dict(), "hparams": HParams()}, "checkpoint.pt")
    loads = []
    load = torch.load
    torch.load = lambda *a, **k: (loads.append(k.get("weights_only")), load(*a, **k))[1]
    model = classifier()
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, ckpt_trusted_source="yes")
    try:
        run_snippet(code, model=model, HParams=HParams, hparams=HParams())
    finally:
        torch.load = load
    assert loads == [False, None, None], loads
    assert torch.equal(model.head.weight, saved.head.weight)
    torch.serialization.clear_safe_globals()
    assert torch.load("checkpoint.pt")["hparams"] == {"hidden": 16, "lr": 0.1}
    if rank == 0:
        print("trusted: 3 loads done, plain checkpoint loads with weights_only=True")


if __name__ == "__main__":
    launch(main, SCENARIO)
