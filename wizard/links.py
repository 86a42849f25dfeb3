"""Starting the wizard from a paste: what the paste proved becomes answers it will not ask."""

from django.urls import reverse

from kb.models import Check, Framework, Sibling
from wizard.reasoning import NO, YES
from wizard.state import State


def from_paste(entry, facts):
    """The wizard's URL for `entry`, pre-answered from the diagnosis `facts` (key -> Fact)."""
    scope = [entry.pk, *Sibling.objects.filter(entry=entry).values_list("other_id", flat=True)]
    pairs, known, evidence = [], [], {}
    checks = Check.objects.filter(entry_id__in=scope).exclude(fact="").order_by("entry_id")
    for check in sorted(checks, key=lambda c: c.entry_id != entry.pk):
        fact_key, _, fact_value = check.fact.partition("=")
        fact = facts.get(fact_key)
        if fact is None or check.key in known:
            continue
        pairs.append((check.key, YES if fact.value == fact_value else NO))
        known.append(check.key)
        evidence[check.key] = fact.evidence
    framework = facts.get("framework")
    if framework and Framework.objects.filter(key=framework.value).exists():
        pairs.append(("framework", framework.value))
        known.append("framework")
        evidence["framework"] = framework.evidence
    query = State(entry.slug, pairs, known, evidence).query()
    return f"{reverse('wizard:step')}?{query}"
