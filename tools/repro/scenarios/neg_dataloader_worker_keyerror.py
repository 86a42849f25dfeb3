"""Negative: a KeyError raised inside a DataLoader worker of a DDP training loop."""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler

from tools.repro.harness import NEGATIVE, NEGATIVE_SLUG, Scenario, launch

SCENARIO = Scenario(
    slug=NEGATIVE_SLUG,
    variant="dataloader-worker-keyerror",
    description="negative: KeyError in Dataset.__getitem__ in a DataLoader worker under DDP",
    expect="fail",
    role=NEGATIVE,
    key_text=("KeyError: Caught KeyError in DataLoader worker process 0.", "KeyError: 'label'"),
)


class RecordsDataset(Dataset):
    def __init__(self):
        # Every 5th record lost its label somewhere upstream.
        self.records = [
            {"features": [float(i)] * 4, **({"label": i % 2} if i % 5 else {})}
            for i in range(1, 40)
        ]

    def __len__(self):
        return len(self.records)

    def __getitem__(self, index):
        record = self.records[index]
        return torch.tensor(record["features"]), torch.tensor(float(record["label"]))


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(nn.Linear(4, 1))
    dataset = RecordsDataset()
    loader = DataLoader(
        dataset, batch_size=8, num_workers=1, sampler=DistributedSampler(dataset, shuffle=False)
    )
    for x, y in loader:
        nn.functional.mse_loss(model(x).squeeze(1), y).backward()


if __name__ == "__main__":
    launch(main, SCENARIO)
