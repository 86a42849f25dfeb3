"""Mask what the unmatched queue already holds: normalised_text was stored unmasked, and
masked_text lacked the rules for secrets and private names."""

from django.db import migrations, models

from kb.diagnosis.mask import fingerprint, mask

MAX_STORED_CHARS = 20_000  # kb/triage.py


def mask_queued_pastes(apps, schema_editor):
    """Mask both texts of every paste with the server's mask, and file each paste under the
    fingerprint its masked text now has, so that its repeats find it; pastes that now mask
    alike become one (their counts added up), the one with a draft entry if any."""
    UnmatchedPaste = apps.get_model("kb", "UnmatchedPaste")
    pastes = UnmatchedPaste.objects.all()
    order = pastes.order_by(models.F("draft").desc(nulls_last=True), "pk")
    pks = list(order.values_list("pk", flat=True))
    # Out of the way first: a paste's new fingerprint may be another's old one.
    for pk in pks:
        pastes.filter(pk=pk).update(fingerprint=f"migrating-{pk}")
    kept = {}  # fingerprint -> [pk, count, first_seen, last_seen, has a draft]
    for pk in pks:
        paste = pastes.get(pk=pk)
        masked = mask(paste.masked_text)
        key = fingerprint(masked)
        first = kept.get(key)
        if first is not None and not (first[4] and paste.draft_id):
            first[1] += paste.count
            first[2] = min(first[2], paste.first_seen)
            first[3] = max(first[3], paste.last_seen)
            paste.delete()
            continue
        if first is None:
            kept[key] = [pk, paste.count, paste.first_seen, paste.last_seen, bool(paste.draft_id)]
        pastes.filter(pk=pk).update(
            # Two drafts for one failure: both stay, the second under a fingerprint of its own.
            fingerprint=key if first is None else f"{key}-{pk}",
            masked_text=masked,
            normalised_text=mask(paste.normalised_text, MAX_STORED_CHARS)[:MAX_STORED_CHARS],
        )
    for pk, count, first_seen, last_seen, _ in kept.values():
        pastes.filter(pk=pk).update(count=count, first_seen=first_seen, last_seen=last_seen)


class Migration(migrations.Migration):
    dependencies = [
        ("kb", "0006_list_revision"),
    ]

    operations = [
        migrations.AlterField(
            model_name="unmatchedpaste",
            name="masked_text",
            field=models.TextField(
                help_text="The root failure, masked: secrets, private names, paths and numbers."
            ),
        ),
        migrations.AlterField(
            model_name="unmatchedpaste",
            name="normalised_text",
            field=models.TextField(
                help_text=(
                    "The first paste seen, normalised and masked (its first 20,000 characters)."
                )
            ),
        ),
        migrations.RunPython(mask_queued_pastes, migrations.RunPython.noop),
    ]
