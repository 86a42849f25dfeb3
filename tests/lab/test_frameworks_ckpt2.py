"""The checkpoint entries' fixes in the real frameworks (Lightning 2.6.6, the Hugging Face
Trainer of transformers 5.24.0, Accelerate 1.15.0) on torch 2.13.0, CPU, the Hub's downloads
served by a stand-in on 127.0.0.1 (fw_ckpt2_support.local_hub): each broken scenario is the
user's configuration failing with the entry's text, captured into tests/corpus/; each fixed one
runs the entry's snippet for that framework as the wizard renders it, on two processes under
torchrun, and trains with equal gradients across ranks at every optimizer step.
"""

import pytest

from tests.lab.lab import NEEDS_TORCH, run_and_check

BROKEN_RUNS = [
    "fw_lightning_ckpt2_hparams_dataclass",
    "fw_lightning_ckpt2_whole_checkpoint_dict",
    "fw_lightning_ckpt2_num_classes_changed",
    "fw_lightning_ckpt2_optimizer_groups_changed",
    "fw_lightning_ckpt2_truncated_last_ckpt",
    "fw_lightning_ckpt2_lfs_pointer_last_ckpt",
    "fw_hf_trainer_ckpt2_num_labels_changed",
    "fw_hf_trainer_ckpt2_cached_html_page",
    "fw_hf_trainer_ckpt2_cached_safetensors_half",
    "fw_hf_trainer_ckpt2_optimizer_groups_changed",
    "fw_hf_trainer_ckpt2_truncated_optimizer",
    "fw_accelerate_ckpt2_truncated_optimizer",
    "fw_accelerate_ckpt2_head_resized",
    "fw_accelerate_ckpt2_half_model_safetensors",
    "fw_accelerate_ckpt2_lfs_pointer_state",
]

FIXED_RUNS = [
    "fw_lightning_ckpt2_fixed_allowlist_hparams",
    "fw_lightning_ckpt2_fixed_state_dict_entry",
    "fw_lightning_ckpt2_fixed_saved_hparams_new_head",
    "fw_lightning_ckpt2_fixed_fresh_optimizer",
    "fw_lightning_ckpt2_fixed_keep_two_checkpoints",
    "fw_hf_trainer_ckpt2_fixed_ignore_mismatched_sizes",
    "fw_hf_trainer_ckpt2_fixed_force_download",
    "fw_hf_trainer_ckpt2_fixed_safetensors_download",
    "fw_hf_trainer_ckpt2_fixed_weights_only_resume",
    "fw_hf_trainer_ckpt2_fixed_resume_older_checkpoint",
    "fw_accelerate_ckpt2_fixed_load_state",
    "fw_accelerate_ckpt2_fixed_numbered_states",
    "fw_accelerate_ckpt2_fixed_drop_resized_layers",
    "fw_accelerate_ckpt2_fixed_check_then_load_state",
    "fw_accelerate_ckpt2_fixed_check_state_files",
    "fw_lightning_ckpt2_fixed_map_location_cpu",
    "fw_lightning_ckpt2_fixed_check_then_resume",
]


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize("module", BROKEN_RUNS)
def test_checkpoint_loaded_the_users_way_fails_with_the_entrys_text_in_each_framework(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize("module", FIXED_RUNS)
def test_snippets_load_the_checkpoint_and_train_with_equal_gradients(module):
    run_and_check(module, "torchrun")
