"""DATA-004: a training script without ``if __name__ == "__main__":`` under the spawn start method.

Each rank runs a user's script as ``__main__`` (runpy, as ``python train.py`` does): at module
level it builds a DataLoader whose worker is started with spawn (the default on Windows and
macOS) and iterates it. The worker imports the script again to find its dataset, reaches the
same loop, and tries to start a worker of its own while still bootstrapping: multiprocessing
refuses, the worker exits, and the rank's DataLoader reports the worker's unexpected exit.
"""

from tools.repro.data_support import run_as_main
from tools.repro.harness import BROKEN, Scenario, launch

SCENARIO = Scenario(
    slug="multiprocessing-spawn-main-guard",
    variant="dataloader-at-module-level",
    description="broken: a script iterates a spawn DataLoader at module level, with no main guard",
    expect="fail",
    role=BROKEN,
    key_text=("current process has finished its bootstrapping phase", "exited unexpectedly"),
)

SCRIPT = """
import torch
from torch.utils.data import DataLoader, Dataset


class Squares(Dataset):
    def __len__(self):
        return 16

    def __getitem__(self, index):
        return torch.tensor([float(index) ** 2])


loader = DataLoader(Squares(), batch_size=4, num_workers=1, multiprocessing_context="spawn")
for batch in loader:
    print(batch.sum().item())
"""


def main(rank, world_size):
    run_as_main(SCRIPT)


if __name__ == "__main__":
    launch(main, SCENARIO)
