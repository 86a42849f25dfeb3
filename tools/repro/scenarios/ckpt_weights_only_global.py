"""CKPT-003: torch.load's default weights_only=True (torch >= 2.6) refusing a pickled class.

The checkpoint holds the weights and a dataclass of hyperparameters (HParams, from
tools.repro.ckpt_support, so that the class has the same name under both launchers).  Each rank
first runs the entry's own fix, which allowlists HParams with the safe_globals context and with
add_safe_globals, and loads the weights; the allowlist is then cleared, as in a fresh process,
and a plain torch.load of the same file raises "Weights only load failed ... Unsupported global:
GLOBAL tools.repro.ckpt_support.HParams was not an allowed global by default".
"""

import shutil

import torch

from tools.repro.ckpt_support import HParams, classifier, work_dir
from tools.repro.harness import BROKEN, Scenario, launch
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="torch-load-weights-only",
    variant="hparams-dataclass-default-weights-only",
    description="broken: a dataclass in the checkpoint, default weights_only; allowlist fix first",
    expect="fail",
    role=BROKEN,
    key_text=(
        "fix: loaded with HParams allowlisted",
        "Weights only load failed. This file can still be loaded",
        "Unsupported global: GLOBAL tools.repro.ckpt_support.HParams was not an allowed global",
    ),
    snippet=("allowlist-the-globals", "pytorch"),
)


def main(rank, world_size):
    torch.manual_seed(0)
    work_dir(rank)
    saved = classifier()
    hparams = HParams()
    torch.save({"model_state_dict": saved.state_dict(), "hparams": hparams}, "checkpoint.pt")
    shutil.copy("checkpoint.pt", "with_hparams.pt")

    model = classifier()
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    assert "weights_only=False" not in code  # the default answer: a source not fully trusted
    run_snippet(code, model=model, HParams=HParams, hparams=hparams)
    assert torch.equal(model.head.weight, saved.head.weight)
    assert torch.load("checkpoint.pt")["hparams"] == vars(hparams)  # saved as plain values now
    print(f"rank {rank}: fix: loaded with HParams allowlisted")

    torch.serialization.clear_safe_globals()
    torch.load("with_hparams.pt")
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch(main, SCENARIO)
