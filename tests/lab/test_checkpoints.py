"""The reproduction lab for the checkpoints family (ckpt_* scenarios).

Every failure of the family that does not need a GPU or a package the lab lacks is real here:
names and shapes that do not fit the model, weights_only refusing a class, an HTML page and a
Git LFS pointer saved as a checkpoint, a checkpoint cut short, storages tagged cuda:0 loaded on
the CPU build, optimizer state for other parameter groups. Each broken scenario runs its entry's
own fix first, on the same files, and then fails as users see it; safetensors is not installed,
so safetensors-header-invalid has no scenario. Same style as test_reproductions.py.
"""

import pytest

from tests.lab.lab import LAB_LAUNCHERS, NEEDS_TORCH, run_and_check

pytestmark = NEEDS_TORCH


@pytest.mark.slow
@LAB_LAUNCHERS
def test_a_renamed_layer_or_the_whole_checkpoint_dict_gives_missing_and_unexpected_keys(launcher):
    run_and_check("ckpt_state_dict_keys", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_a_ten_class_checkpoint_in_a_three_class_model_is_a_size_mismatch(launcher):
    run_and_check("ckpt_size_mismatch", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_the_default_weights_only_refuses_a_pickled_dataclass(launcher):
    run_and_check("ckpt_weights_only_global", launcher)


@pytest.mark.slow
def test_a_trusted_file_loads_with_weights_only_false_and_the_allowlist():
    run_and_check("ckpt_weights_only_fixed_trusted", "torchrun")


@pytest.mark.slow
@LAB_LAUNCHERS
def test_an_html_page_or_an_lfs_pointer_is_no_pickle(launcher):
    run_and_check("ckpt_corrupt_file", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_half_a_checkpoint_has_no_central_directory(launcher):
    run_and_check("ckpt_truncated_zip", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_an_lfs_pointer_or_half_a_safetensors_file_fails_its_header_and_the_check_refuses_it(
    launcher,
):
    run_and_check("ckpt_safetensors_not_complete", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_storages_tagged_cuda_need_map_location_on_a_cpu_build(launcher):
    run_and_check("ckpt_cuda_tagged_storages", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_optimizer_state_saved_with_the_backbone_frozen_does_not_fit(launcher):
    run_and_check("ckpt_optimizer_groups", launcher)
