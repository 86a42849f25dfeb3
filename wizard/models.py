import hashlib

from django.db import models

from kb.models import Entry, Revision


def visitor_digest(visitor_id):
    """What is stored of a visitor's cookie id: its hash, so no row can be turned back into a
    cookie that votes as someone else. The id is random, so a plain hash needs no key."""
    return hashlib.sha256(visitor_id.encode()).hexdigest()


class FeedbackQuerySet(models.QuerySet):
    def record(self, entry, visitor_id, **answer):
        """One vote per visitor per revision of an entry: a later vote replaces the earlier."""
        feedback, _ = self.update_or_create(
            entry=entry,
            revision=entry.revisions.first(),
            visitor=visitor_digest(visitor_id),
            defaults=answer,
        )
        return feedback


class Feedback(models.Model):
    """ "Did this fix it?", stored against the entry and the revision the user saw."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="feedback")
    revision = models.ForeignKey(Revision, null=True, blank=True, on_delete=models.SET_NULL)
    # Empty on votes cast before visitors were told apart: those are kept, each as it came.
    visitor = models.CharField(max_length=64, blank=True, default="", editable=False)
    fixed = models.BooleanField()
    causes = models.CharField(max_length=200, blank=True)
    fix = models.CharField(max_length=60, blank=True)
    framework = models.CharField(max_length=40, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = FeedbackQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "feedback"
        constraints = [
            models.UniqueConstraint(
                fields=["entry", "revision", "visitor"],
                condition=~models.Q(visitor=""),
                name="one_vote_per_visitor_per_revision",
            )
        ]

    def __str__(self):
        return f"{self.entry.code} {'fixed' if self.fixed else 'not fixed'}"
