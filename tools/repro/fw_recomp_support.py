"""What the Hugging Face Trainer scenarios of dynamo-recompile-limit share
(scenarios/fw_hf_trainer_recomp_*.py): tokenised examples of many lengths, which a collator that
pads each batch to its longest example turns into batches of many shapes,.

The Trainer hands torch_compile=True to Accelerate's TorchDynamoPlugin, which compiles with
dynamic=False when ACCELERATE_DYNAMO_USE_DYNAMIC says so (accelerate/utils/dataclasses.py,
TorchDynamoPlugin.__post_init__), as `accelerate launch` always does
(accelerate/utils/launch.py, prepare_multi_gpu_env: str(args.dynamo_use_dynamic), False
unless --dynamo_use_dynamic): every new shape then fails a size guard and compiles again. The
scenarios set that variable in their SCENARIO's env (the registry reads a SCENARIO's literals
only). Under a plain torchrun it is unset, the plugin leaves dynamic to torch, and Dynamo's
automatic dynamic shapes make the length a symbol at the first recompilation: one
recompilation, no limit (tried: TORCH_LOGS="recompiles" shows 0/1 and 4/1 only).
"""

from __future__ import annotations

import torch
import torch.nn as nn


class VaryingLengthSequences:
    """Tokenised examples of random lengths from 9 to 80 tokens (ids 1 to 11, fw_data2_support's
    tiny_tokenizer's vocabulary), different on every rank, each with a scalar label: padded to
    each batch's longest they take a dozen shapes or more, padded to a multiple of 64 two."""

    def __init__(self, rank: int = 0, count: int = 32):
        generator = torch.Generator().manual_seed(rank)
        self.lengths = torch.randint(9, 81, (count,), generator=generator).tolist()
        self.rank = rank

    def __len__(self):
        return len(self.lengths)

    def __getitem__(self, index):
        ids = (torch.arange(self.lengths[index]) + index + self.rank) % 11 + 1
        return {"input_ids": ids, "labels": torch.tensor(float(index % 3))}


class PooledRegressor(nn.Module):
    """fw_data2_support's SequenceRegressor without its list of shapes: a Python side effect in
    forward is a guard of its own (len(self.shapes) == 7), failing at every call whatever the
    shapes, where these runs must show the guards on the sequence length alone."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.embedding = nn.Embedding(12, 4)
        self.linear = nn.Linear(4, 1)

    def forward(self, input_ids, attention_mask, labels=None, num_items_in_batch=None):
        mask = attention_mask.unsqueeze(-1).float()
        pooled = (self.embedding(input_ids) * mask).sum(1) / mask.sum(1)
        output = self.linear(pooled).squeeze(-1)
        return {"loss": nn.functional.mse_loss(output, labels), "logits": output}


def record_batch_lengths(trainer) -> list:
    """The sequence length of every batch the Trainer's collator makes, recorded outside the
    compiled model: the list returned fills as the Trainer trains."""
    lengths = []
    collate = trainer.data_collator

    def recording(features):
        batch = collate(features)
        lengths.append(batch["input_ids"].shape[1])
        return batch

    trainer.data_collator = recording
    return lengths
