""" "Tell the maintainers": a wizard result whose fix did not work, put in the queue of failures
nobody recognised (kb.models.UnmatchedPaste, the admin's *Unmatched pastes*), where staff turn
what keeps coming back into entries or better fixes.

The answers are masked like a paste (kb/diagnosis/mask.py): the state can carry text the
user typed (`ev.<fact>=...`). Reports of one entry, cause and fix share a fingerprint, so that
repeats count up in one row rather than fill the queue."""

import hashlib
from urllib.parse import unquote_plus

from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from kb.diagnosis.mask import mask
from kb.models import UnmatchedPaste

MAX_STATE_CHARS = 2000


def report_unfixed(entry, causes, fix, framework, state):
    """Queue (or count again) that the wizard's fix `fix` for `causes` of `entry` did not fix
    the user's failure; `state` is the wizard's query string, kept for staff to replay."""
    key = f"wizard-unfixed:{entry.code}:{causes}:{fix}"
    fingerprint = hashlib.sha256(key.encode()).hexdigest()
    if UnmatchedPaste.objects.filter(fingerprint=fingerprint).update(
        count=F("count") + 1, last_seen=timezone.now()
    ):
        return
    address = f"{reverse('wizard:step')}?{state[:MAX_STATE_CHARS]}"
    text = "\n".join(
        [
            f"The wizard's fix did not fix it: {entry.code} {entry.title}",
            f"Causes: {causes or '(none settled)'}; fix: {fix or '(none)'}; "
            f"framework: {framework or '(not given)'}",
            # Only the answers can hold what the user typed; the rest is the site's own text.
            f"Answers: {mask(unquote_plus(address))}",
        ]
    )
    UnmatchedPaste.objects.get_or_create(
        fingerprint=fingerprint, defaults={"masked_text": text, "normalised_text": text}
    )
