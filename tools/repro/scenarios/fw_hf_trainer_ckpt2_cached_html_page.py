"""A Trainer script whose model comes from the Hub (org/model, served on 127.0.0.1 by a stand-in,
nothing leaves the machine) through a cache where pytorch_model.bin is an HTML page, as a
proxy's or a portal's page saved under the file's name leaves it: from_pretrained finds the
file's ETag unchanged, keeps the cached page and torch.load refuses it ("Weights only load
failed ... Unsupported operand 60", the byte '<'), before the Trainer starts (transformers
5.24.0, two CPU processes under torchrun).
"""

from transformers import AutoModel

from tools.repro.ckpt_support import html_page
from tools.repro.fw_ckpt2_support import damaged_hub_download, shared_dir
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="checkpoint-corrupt-file",
    variant="hf-trainer-cached-html-page",
    description="transformers 5.24.0: an HTML page cached as pytorch_model.bin",
    expect="fail",
    role=BROKEN,
    key_text=(
        "Weights only load failed.",
        "Unsupported operand 60",
        "transformers/modeling_utils.py",
    ),
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    shared_dir()
    with damaged_hub_download(rank, "pytorch_model.bin", html_page):
        AutoModel.from_pretrained("org/model")
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
