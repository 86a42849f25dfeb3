"""Checkpoint files for the checkpoints family's scenarios (ckpt_*.py): real checkpoints written
by torch.save, and the broken files users meet, made from them without a GPU or a network.

- ``html_page`` and ``lfs_pointer``: what a download of a file's web page, or a clone without
  Git LFS, leaves under a checkpoint's name.
- ``truncate``: the first part of a real checkpoint, as an interrupted download or save leaves it.
- ``tag_storages(path, "cuda:0")``: a real CPU checkpoint whose storages say they were saved on
  ``cuda:0``. torch.save records each storage's location as a string in the pickled structure
  (``archive/data.pkl``, the persistent id ``("storage", type, key, "cpu", numel)``); a
  checkpoint saved from GPU tensors holds ``"cuda:0"`` there and nothing else differs. The
  pickle (protocol 2) stores the string as BINUNICODE (``X``, a 4-byte length, the bytes), so
  rewriting ``X\\x03\\x00\\x00\\x00cpu`` as ``X\\x06\\x00\\x00\\x00cuda:0`` and writing the archive
  again with the same entries gives the file a GPU run would have saved.

The scenarios run in a scratch folder of their own per rank (``work_dir``), since the entries'
snippets name their files relative to the current directory ("checkpoint.pt").
"""

from __future__ import annotations

import os
import tempfile
import zipfile
from dataclasses import dataclass

HTML_PAGE = (
    '<!DOCTYPE html>\n<html lang="en">\n<head><title>model.pth at main</title></head>\n'
    '<body>This file is stored with Git LFS. <a href="/raw/main/model.pth">View raw</a></body>\n'
    "</html>\n"
)
LFS_POINTER = (
    "version https://git-lfs.github.com/spec/v1\n"
    "oid sha256:4f3c1a6a2d0f1e0b8c9d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b\n"
    "size 102502400\n"
)


@dataclass
class HParams:
    """A hyperparameter object, as many training scripts save next to the weights."""

    hidden: int = 16
    lr: float = 0.1


def work_dir(rank: int) -> str:
    """A fresh scratch folder for this rank, made the current directory."""
    path = tempfile.mkdtemp(prefix=f"faultline-ckpt-rank{rank}-")
    os.chdir(path)
    return path


def classifier(head: str = "head", num_classes: int = 10):
    """A small classifier whose output layer is named `head` (the code at one time calls it
    "fc", later "head")."""
    import torch.nn as nn

    class Classifier(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Linear(4, 16)
            setattr(self, head, nn.Linear(16, num_classes))
            self.head_name = head

        def forward(self, batch):
            return getattr(self, self.head_name)(self.body(batch).relu()).pow(2).mean()

    return Classifier()


def write(path: str, text: str) -> str:
    with open(path, "w") as f:
        f.write(text)
    return path


def html_page(path: str) -> str:
    return write(path, HTML_PAGE)


def lfs_pointer(path: str) -> str:
    return write(path, LFS_POINTER)


def truncate(src: str, dst: str, fraction: float = 0.5) -> str:
    with open(src, "rb") as f:
        data = f.read()
    with open(dst, "wb") as f:
        f.write(data[: int(len(data) * fraction)])
    return dst


def tag_storages(src: str, dst: str, location: str = "cuda:0") -> int:
    """Copy the checkpoint `src` to `dst` with every storage's location rewritten from "cpu" to
    `location`; returns how many location strings were rewritten."""
    old = b"X" + len("cpu").to_bytes(4, "little") + b"cpu"
    new = b"X" + len(location).to_bytes(4, "little") + location.encode()
    count = 0
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_STORED) as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename.endswith("/data.pkl"):
                count = data.count(old)
                data = data.replace(old, new)
            zout.writestr(info.filename, data)
    return count
