from django.db import models

from kb.models import Entry, Revision


class Feedback(models.Model):
    """ "Did this fix it?", stored against the entry and the revision the user saw."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="feedback")
    revision = models.ForeignKey(Revision, null=True, blank=True, on_delete=models.SET_NULL)
    fixed = models.BooleanField()
    causes = models.CharField(max_length=200, blank=True)
    fix = models.CharField(max_length=60, blank=True)
    framework = models.CharField(max_length=40, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "feedback"

    def __str__(self):
        return f"{self.entry.code} {'fixed' if self.fixed else 'not fixed'}"
