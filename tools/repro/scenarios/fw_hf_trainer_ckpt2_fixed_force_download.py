"""Fix, in the Hugging Face Trainer: the entry's own snippet (from_pretrained("org/model",
force_download=True)), rendered as the wizard renders it, fetches pytorch_model.bin again from
the Hub's stand-in on 127.0.0.1 over the HTML page in the cache; the model loads and trains with
the Trainer on two CPU processes under torchrun, with gradients equal across ranks before every
optimizer step.
"""

import torch

from tools.repro.ckpt_support import html_page
from tools.repro.framework_support import report_equal_gradients
from tools.repro.fw_ckpt2_support import (
    damaged_hub_download,
    local_hub,
    shared_dir,
    train_bare_model,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="checkpoint-corrupt-file",
    variant="hf-trainer-fixed-force-download",
    description="fix in transformers 5.24.0: the snippet, from_pretrained(force_download=True)",
    expect="complete",
    role=FIXED,
    key_text=(
        "pytorch_model.bin downloaded again",
        "optimizer steps, gradients equal across ranks",
    ),
    launchers=("torchrun",),
    snippet=("fetch-the-real-file", "hf_trainer"),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    shared_dir()
    with damaged_hub_download(rank, "pytorch_model.bin", html_page) as saved:
        model = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))["model"]
        assert local_hub.downloads["pytorch_model.bin"] == 2, local_hub.downloads
    assert torch.equal(model.wte.weight, saved.wte.weight)
    if rank == 0:
        print("pytorch_model.bin downloaded again; the model loads")
    report_equal_gradients(train_bare_model(model, rank), rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
