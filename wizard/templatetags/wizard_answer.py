"""The answer a diagnosis page leads with, as the wizard reasons it (wizard/answer.py).

A template tag rather than a view: the diagnosis pages (/diagnose, /d/<key>, /go) are kb's,
and kb never imports the wizard (README, "How the code is laid out"); the page's template,
which belongs to neither app, asks the wizard for its answer here."""

from django import template
from django.urls import reverse

from kb.models import Entry
from wizard.answer import answer_for

register = template.Library()

SHOWN_CANDIDATES = 5
SMALLEST_SHOWN = 0.005  # what rounds to 0%


def percent(p):
    """A probability as a person reads it: never "0%" or "100%", which a calibrated
    probability never is."""
    if p < SMALLEST_SHOWN:
        return "under 1%"
    if p >= 0.995:
        return "over 99%"
    return f"{round(p * 100)}%"


@register.inclusion_tag("wizard/_answer.html", takes_context=True)
def answer(context, diagnosis):
    """The entry, its most likely cause and the fix with its snippet, the link into the
    wizard that confirms it, and the other candidates with the chance each is the failure."""
    staff = context["request"].user.is_staff
    found = answer_for(diagnosis, staff=staff)
    if found is None:
        return {"answer": None, "diagnosis": diagnosis}
    result = found.result
    slug = result.entry.slug
    chosen = next((c for c in diagnosis.candidates if c.slug == slug), None)
    others = [c for c in diagnosis.candidates if c.slug != slug]
    shown = [c for c in others[:SHOWN_CANDIDATES] if c.confidence >= SMALLEST_SHOWN]
    rest = sum(c.confidence for c in others if c not in shown)
    unknown = max(0.0, 1.0 - sum(c.confidence for c in diagnosis.candidates))
    return {
        "answer": found,
        "diagnosis": diagnosis,
        "result": result,
        "summary": Entry.objects.filter(slug=slug).values_list("summary", flat=True).first(),
        "confidence": chosen.confidence if chosen else 0.0,
        "percent": percent(chosen.confidence if chosen else 0.0),
        "confirm_url": f"{reverse('wizard:step')}?{found.query}",
        "others": [(c, percent(c.confidence)) for c in shown],
        "rest": percent(rest) if rest >= SMALLEST_SHOWN else None,
        "rest_count": len(others) - len(shown),
        "unknown": percent(unknown),
    }
