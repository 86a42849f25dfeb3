"""What the lab's distillation scenarios share (`ddp-no-trainable-params` in each framework): a
teacher that differs from the student, and the training each framework's script does around
the two, a student learning the teacher's outputs.

The teacher must differ from `framework_support.network()`, the student: a student equal to its
teacher has a loss of zero, hence gradients of zero, and equal gradients would prove nothing.
"""

from __future__ import annotations

import torch
import torch.nn as nn


def teacher_network() -> nn.Module:
    """Wider than the student and seeded apart from it."""
    torch.manual_seed(1)
    return nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))


def distillation_loss(student_output, teacher, batch):
    with torch.no_grad():
        target = teacher(batch)
    return nn.functional.mse_loss(student_output, target)


class LightningDistillation:
    """The rest of a distillation LightningModule whose __init__ holds `student` and
    `teacher`: mixed in before it (the entry's Lightning snippet is that __init__ alone)."""

    def training_step(self, batch, batch_idx):
        return distillation_loss(self.student(batch), self.teacher, batch)

    def configure_optimizers(self):
        return torch.optim.SGD(self.student.parameters(), lr=0.1)


class TrainerDistillation:
    """The loss of a distillation Trainer whose __init__ keeps `self.teacher`: mixed in before
    it (the entry's Trainer snippet is that __init__ alone). The model is
    framework_support.RegressionModel, whose own loss is left aside."""

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        return distillation_loss(model(**inputs)["logits"], self.teacher, inputs["x"])
