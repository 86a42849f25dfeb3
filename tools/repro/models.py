"""Small models the lab's fixed runs hand to an entry's snippet. The snippets write
`loss = model(batch)`, as a script whose model computes its own loss does, so each forward
returns the loss: the mean square of the output."""

import torch.nn as nn


class LinearLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.Linear(4, 1)

    def forward(self, batch):
        return self.layer(batch).pow(2).mean()


class MLPLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, batch):
        return self.net(batch).pow(2).mean()
