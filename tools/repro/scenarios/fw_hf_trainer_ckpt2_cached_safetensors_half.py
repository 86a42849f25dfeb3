"""A Trainer script whose model comes from the Hub (org/model, served on 127.0.0.1 by a stand-in,
nothing leaves the machine) through a cache holding only the first half of model.safetensors,
as a download that broke off leaves it: from_pretrained finds the file's ETag unchanged, keeps
the cached half and safetensors refuses its header ("Error while deserializing header:
incomplete metadata, file not fully covered"), before the Trainer starts (transformers 5.24.0,
safetensors 0.8.0, two CPU processes under torchrun).
"""

from transformers import AutoModel

from tools.repro.fw_ckpt2_support import cut_in_half, damaged_hub_download, shared_dir
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="safetensors-header-invalid",
    variant="hf-trainer-cached-safetensors-half",
    description="transformers 5.24.0: from_pretrained with half of model.safetensors in the cache",
    expect="fail",
    role=BROKEN,
    key_text=(
        "Error while deserializing header: incomplete metadata, file not fully covered",
        "transformers/modeling_utils.py",
    ),
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    shared_dir()
    with damaged_hub_download(rank, "model.safetensors", cut_in_half):
        AutoModel.from_pretrained("org/model")
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
