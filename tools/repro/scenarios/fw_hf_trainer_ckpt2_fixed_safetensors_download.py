"""Fix, in the Hugging Face Trainer: the entry's own snippet (from_pretrained("org/model",
force_download=True)), rendered as the wizard renders it, fetches model.safetensors again from
the Hub's stand-in on 127.0.0.1 over the half of it in the cache; the model loads and trains with
the Trainer on two CPU processes under torchrun, with gradients equal across ranks before every
optimizer step.
"""

from tools.repro.fw_ckpt2_support import cut_in_half, redownload_fix
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="safetensors-header-invalid",
    variant="hf-trainer-fixed-safetensors-download",
    description="fix in transformers 5.24.0: the snippet, from_pretrained(force_download=True)",
    expect="complete",
    role=FIXED,
    key_text=(
        "model.safetensors downloaded again",
        "optimizer steps, gradients equal across ranks",
    ),
    launchers=("torchrun",),
    snippet=("fetch-the-complete-safetensors-file", "hf_trainer"),
    preload=("transformers.trainer",),
)


main = redownload_fix(SCENARIO, "model.safetensors", cut_in_half)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
