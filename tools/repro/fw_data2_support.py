"""What the framework scenarios of the data-pipeline and numerics entries share
(scenarios/fw_*_data2_*.py): a LightningModule and a Trainer model that take whatever batch a
data-pipeline scenario's dataset gives (frames, lists of tensors, squares), the datasets of the
plain scenarios made different on every rank, and a Trainer run over the script's own dataset.

The limits that break a DataLoader (a small /dev/shm, a low open-file limit, a memory cgroup, the
spawn start method) come from tools/repro/data_support.py and mem_support.py, as the plain
scenarios set them.
"""

from __future__ import annotations

import torch
import torch.nn as nn

from tools.repro.harness import grads_match_across_ranks


def features(batch) -> torch.Tensor:
    """One feature per sample of any batch the datasets here give: a tensor (samples first)
    or a list of them (ManyTensors' nested fields), each sample's mean."""
    tensors = batch if isinstance(batch, list | tuple) else [batch]
    means = [t.float().flatten(1).mean(1) if t.dim() > 1 else t.float() for t in tensors]
    return torch.stack(means, 1).mean(1, keepdim=True)


def batch_module(keep: bool = False, lr: float = 1e-4):
    """A LightningModule whose loss is a 1 -> 1 linear layer's squared output on the batch's
    features; with `keep`, it keeps every batch it trained on (a loop that stores its inputs,
    for logging or an epoch's metrics)."""
    import lightning.pytorch as pl

    class OnBatches(pl.LightningModule):
        def __init__(self):
            super().__init__()
            torch.manual_seed(0)
            self.linear = nn.Linear(1, 1)
            self.kept = []

        def training_step(self, batch, batch_idx):
            if keep:
                self.kept.append(batch)
            return self.linear(features(batch)).pow(2).mean()

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=lr)

    return OnBatches()


class FieldsModel(nn.Module):
    """What the Trainer expects of a model, over any fields: the features of every field but
    `labels`, a 1 -> 1 linear layer, the mean square error to the labels. With `keep`, it keeps
    every batch's fields (as batch_module does)."""

    def __init__(self, keep: bool = False):
        super().__init__()
        torch.manual_seed(0)
        self.linear = nn.Linear(1, 1)
        self.keep, self.kept = keep, []

    def forward(self, labels=None, num_items_in_batch=None, **fields):
        if self.keep:
            self.kept.append(fields)
        output = self.linear(features(list(fields.values())))
        return {"loss": nn.functional.mse_loss(output, labels), "logits": output}


def train_hf_on(args, model, dataset, check=True, callbacks=(), batch_size=2, **script):
    """Train `model` with the Trainer, `args` and the script's own `dataset` (and `script`: its
    data_collator, say), `batch_size` examples per rank; asserts equal gradients across ranks
    before every optimizer step unless `check` is off (a broken run). Returns the steps done and
    the losses logged."""
    from transformers import Trainer, TrainerCallback

    steps, losses = [], []

    class CheckGradients(TrainerCallback):
        def on_pre_optimizer_step(self, args, state, control, **kwargs):
            if check:
                assert grads_match_across_ranks(model), (
                    f"step {state.global_step}: gradients differ"
                )
            steps.append(state.global_step)

        def on_log(self, args, state, control, logs=None, **kwargs):
            if logs and "loss" in logs:
                losses.append(logs["loss"])

    script_arguments(args, batch_size)
    # The model takes any fields (**fields): the Trainer would drop those its signature lacks.
    args.remove_unused_columns = False
    trainer = Trainer(
        model=model,
        args=args,
        train_dataset=dataset,
        callbacks=[CheckGradients(), *callbacks],
        **script,
    )
    trainer.train()
    return steps, losses


def _script_settings(batch_size: int) -> dict:
    """What the lab's Trainer runs set besides the user's arguments: nothing saved or reported,
    no progress bar, `batch_size` examples per rank."""
    return {
        "report_to": [],
        "save_strategy": "no",
        "disable_tqdm": True,
        "per_device_train_batch_size": batch_size,
    }


def script_arguments(args, batch_size: int = 2) -> None:
    """_script_settings, set on the script's own TrainingArguments."""
    for name, value in _script_settings(batch_size).items():
        setattr(args, name, value)


def script_arguments_for_the_snippet(batch_size: int = 2, **arguments):
    """TrainingArguments built inside (by the entry's snippet) get this machine's use_cpu=True,
    _script_settings and `arguments` for those they leave out."""
    from transformers import TrainingArguments

    from tools.repro.framework_support import arguments_the_script_gives

    settings = {"use_cpu": True, **_script_settings(batch_size), **arguments}
    return arguments_the_script_gives(TrainingArguments, **settings)


def train_the_snippet_s_trainer(trainer, model, check: bool = True) -> list:
    """Train a Trainer the entry's snippet built, asserting equal gradients across ranks before
    every optimizer step unless `check` is off (a broken run). Returns the steps done."""
    from transformers import TrainerCallback

    steps = []

    class CheckGradients(TrainerCallback):
        def on_pre_optimizer_step(self, args, state, control, **kwargs):
            if check:
                assert grads_match_across_ranks(model), (
                    f"step {state.global_step}: gradients differ"
                )
            steps.append(state.global_step)

    trainer.add_callback(CheckGradients())
    trainer.train()
    return steps


class RankSquares:
    """The squares of the plain spawn scenarios, shifted by the rank: different on every rank."""

    def __init__(self, rank: int = 0):
        self.rank = rank

    def __len__(self):
        return 16

    def __getitem__(self, index):
        return torch.tensor([float(index + self.rank) ** 2])


class RankFrames:
    """data_shm_small_tmpfs's 1 MiB frames (a 512x512 float image), shifted by the rank."""

    def __init__(self, rank: int = 0, count: int = 64):
        self.rank, self.count = rank, count

    def __len__(self):
        return self.count

    def __getitem__(self, index):
        return torch.full((512, 512), float(index + self.rank))


class FrameFields(RankFrames):
    """RankFrames for the Trainer: two frames per example (a 2 MiB example, so the Trainer's
    batches of two are data_shm_small_tmpfs's 4 MiB), with a label."""

    def __getitem__(self, index):
        frame = super().__getitem__(index)
        return {"x": torch.stack([frame, frame]), "labels": torch.zeros(1)}


class TensorFields:
    """data_too_many_open_files's samples for the Trainer: 32 small tensors (fields f0..f31 of
    the example) and a label; each batch is 33 shared tensors."""

    def __init__(self, rank: int = 0, tensors: int = 32):
        self.rank, self.tensors = rank, tensors

    def __len__(self):
        return 64

    def __getitem__(self, index):
        fields = {f"f{k}": torch.full((8,), float(index + k + self.rank)) for k in range(32)}
        return {**fields, "labels": torch.zeros(1)}


def limit_files_at_the_first_step_lightning(headroom: int):
    """A Lightning callback that lowers the open-file limit to `headroom` above what the rank
    has open at the first training batch (the loader's worker already started), as a low
    ``ulimit -n``."""
    import lightning.pytorch as pl

    from tools.repro.data_support import limit_open_files

    class LimitFiles(pl.Callback):
        def on_train_batch_start(self, trainer, pl_module, batch, batch_idx):
            if batch_idx == 0:
                limit_open_files(headroom)

    return LimitFiles()


def limit_files_at_the_first_step_hf(headroom: int):
    """The same for the Trainer: a TrainerCallback at the first step's beginning."""
    from transformers import TrainerCallback

    from tools.repro.data_support import limit_open_files

    class LimitFiles(TrainerCallback):
        def on_step_begin(self, args, state, control, **kwargs):
            if state.global_step == 0:
                limit_open_files(headroom)

    return LimitFiles()


def residual_norm_module():
    """A LightningModule over (inputs, targets) batches: num_support's zero-initialised linear
    model, the loss the Euclidean norm of its residual (sqrt of the summed squares), whose
    gradient is undefined where the residual is zero (num_support.zero_batches)."""
    import lightning.pytorch as pl

    from tools.repro.num_support import zero_model

    class ResidualNorm(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.model = zero_model()

        def training_step(self, batch, batch_idx):
            inputs, targets = batch
            diff = self.model(inputs) - targets
            return torch.sqrt((diff**2).sum(dim=-1)).mean()

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)

    return ResidualNorm()


def logistic_module(clamp: bool):
    """A LightningModule over num_support.saturating_batches: the logistic model, its binary
    cross-entropy written out with log() (its sigmoid rounds to 1.0 on the saturating batch, so
    the loss is NaN there) or, with `clamp`, with the probabilities clamped as the entry's PyTorch
    form does; the loss is logged as train_loss, which the snippet's EarlyStopping monitors."""
    import lightning.pytorch as pl

    from tools.repro.num_support import logistic_model

    class Logistic(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.model = logistic_model()

        def training_step(self, batch, batch_idx):
            inputs, targets = batch
            probs = torch.sigmoid(self.model(inputs))
            if clamp:
                probs = probs.clamp(1e-7, 1 - 1e-7)
            loss = -(targets * probs.log() + (1 - targets) * (1 - probs).log()).mean()
            self.log("train_loss", loss)
            return loss

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)

    return Logistic()


def tiny_tokenizer():
    """A fast tokenizer built in memory (a word-level vocabulary of twelve tokens and [PAD]),
    nothing downloaded: what DataCollatorWithPadding needs of the user's tokenizer."""
    from tokenizers import Tokenizer
    from tokenizers.models import WordLevel
    from transformers import PreTrainedTokenizerFast

    vocab = {"[PAD]": 0, **{f"t{k}": k for k in range(1, 12)}}
    return PreTrainedTokenizerFast(
        tokenizer_object=Tokenizer(WordLevel(vocab, unk_token="[PAD]")), pad_token="[PAD]"
    )


class TokenSequences:
    """Tokenised examples of two lengths (9 and 12, as data_collate_variable_sizes), shifted by
    the rank, each with a scalar label."""

    def __init__(self, rank: int = 0):
        self.rank = rank

    def __len__(self):
        return 16

    def __getitem__(self, index):
        length = 9 if index % 2 == 0 else 12
        ids = (torch.arange(length) + index + self.rank) % 11 + 1
        return {"input_ids": ids, "labels": torch.tensor(float(index % 3))}


class SequenceRegressor(nn.Module):
    """The mean embedding of the unpadded tokens (attention_mask), a linear layer, the mean
    square error to the label."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.embedding = nn.Embedding(12, 4)
        self.linear = nn.Linear(4, 1)
        self.shapes = []

    def forward(self, input_ids, attention_mask=None, labels=None, num_items_in_batch=None):
        self.shapes.append(tuple(input_ids.shape))
        mask = torch.ones_like(input_ids) if attention_mask is None else attention_mask
        mask = mask.unsqueeze(-1).float()
        pooled = (self.embedding(input_ids) * mask).sum(1) / mask.sum(1)
        output = self.linear(pooled).squeeze(-1)
        return {"loss": nn.functional.mse_loss(output, labels), "logits": output}


class StreamedImages:
    """mem_dataloader_workers_keep_samples' images, each made when it is read and kept by no
    one (a dataset that reads its samples on demand), fewer of them, shifted by the rank."""

    def __init__(self, rank: int = 0, count: int = 64, shape=(3, 256, 256)):
        self.rank, self.count, self.shape = rank, count, shape

    def __len__(self):
        return self.count

    def __getitem__(self, index):
        generator = torch.Generator().manual_seed(index + 1000 * self.rank)
        return torch.rand(self.shape, generator=generator)


class ImageFields:
    """A dataset's images as the Trainer's examples (`x` and a label), from `images`."""

    def __init__(self, images):
        self.images = images

    def __len__(self):
        return len(self.images)

    def __getitem__(self, index):
        return {"x": self.images[index], "labels": torch.zeros(1)}


def spawn_squares_datamodule():
    """The user's LightningDataModule: RankSquares of this rank (RANK, as torchrun gives it),
    read by one worker started with spawn (multiprocessing_context, as on macOS and Windows)."""
    import os

    import lightning.pytorch as pl
    from torch.utils.data import DataLoader

    class SpawnSquares(pl.LightningDataModule):
        def train_dataloader(self):
            dataset = RankSquares(int(os.environ.get("RANK", "0")))
            return DataLoader(dataset, batch_size=4, num_workers=1, multiprocessing_context="spawn")

    return SpawnSquares()
