"""Fix, in the Hugging Face Trainer: the entry's own snippet (from_pretrained("org/model",
force_download=True)), rendered as the wizard renders it, fetches pytorch_model.bin again from
the Hub's stand-in on 127.0.0.1 over the HTML page in the cache; the model loads and trains with
the Trainer on two CPU processes under torchrun, with gradients equal across ranks before every
optimizer step.
"""

from tools.repro.ckpt_support import html_page
from tools.repro.fw_ckpt2_support import redownload_fix
from tools.repro.harness import FIXED, Scenario, launch_without_group

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


main = redownload_fix(SCENARIO, "pytorch_model.bin", html_page)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
