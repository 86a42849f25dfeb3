"""The queue of pastes nobody recognised, and turning one into a draft entry."""

from django.db import transaction
from django.db.models import F

from kb.models import Category, Entry, SampleLine, UnmatchedPaste
from kb.taxonomy.store import record_revision

MAX_STORED_CHARS = 20_000
TRIAGE_CATEGORY = ("untriaged", "Untriaged")


def record_unmatched(diagnosis):
    """Count this paste under its masked fingerprint; the first copy's text is kept."""
    paste, created = UnmatchedPaste.objects.get_or_create(
        fingerprint=diagnosis.fingerprint,
        defaults={
            "masked_text": diagnosis.masked,
            "normalised_text": diagnosis.normalised.text[:MAX_STORED_CHARS],
        },
    )
    if not created:
        UnmatchedPaste.objects.filter(pk=paste.pk).update(count=F("count") + 1)
    return paste


def _next_code(prefix="NEW"):
    taken = set(Entry.objects.filter(code__startswith=f"{prefix}-").values_list("code", flat=True))
    number = 1
    while f"{prefix}-{number:03d}" in taken:
        number += 1
    return f"{prefix}-{number:03d}"


@transaction.atomic
def draft_from_unmatched(paste, author=None):
    """A draft entry seeded with the paste, for an author to complete and publish."""
    if paste.draft_id:
        return paste.draft
    category, _ = Category.objects.get_or_create(
        slug=TRIAGE_CATEGORY[0], defaults={"name": TRIAGE_CATEGORY[1]}
    )
    first_line = paste.masked_text.splitlines()[0] if paste.masked_text else "Unknown failure"
    entry = Entry.objects.create(
        slug=f"untriaged-{paste.fingerprint[:10]}",
        code=_next_code(),
        title=first_line[:200],
        summary="To be written: what fails and why.",
        explanation=(
            f"Seen {paste.count} time(s) since {paste.first_seen:%d %b %Y}. The failure as "
            f"pasted, masked:\n\n```text\n{paste.masked_text}\n```"
        ),
        status=Entry.Status.DRAFT,
        category=category,
    )
    SampleLine.objects.create(entry=entry, text=first_line, note="From the unmatched paste.")
    paste.draft = entry
    paste.save(update_fields=["draft"])
    record_revision(entry, "triage", author=author, message="Draft from an unmatched paste")
    return entry
