"""What the knowledge base covers, read from its content so that it stays true as families are
added: each family with entries a visitor may see, how many, and where to browse them; and,
for a paste no entry matches, the family its evidence points to."""

from dataclasses import dataclass

from django.db.models import Count

from kb.models import Category, Family

# Below this an entry is noise to someone mid-incident, not a lead: a no-match lists no
# "nearest entries" under it.
NEAREST_FLOOR = 0.35
# Evidence that names a kind of failure: a signature, exception type, assert site or
# fingerprint that the content weighs above a builtin exception type (a bare `ValueError`
# weighs 0.1; `torch.OutOfMemoryError` 0.3), and never words of the paste that an entry
# happens to share.
POINTING = ("signature", "exception", "assert_site", "fingerprint")
POINTING_AMOUNT = 0.25


@dataclass(frozen=True)
class CoveredFamily:
    slug: str
    name: str
    description: str
    entries: int
    url: str | None  # its top category's page


def covered_families(entries):
    """The families `entries` (a QuerySet) belong to, in content order, with their counts."""
    counts = dict(
        entries.order_by()
        .values_list("category__family")
        .annotate(count=Count("pk"))
        .values_list("category__family", "count")
    )
    tops = {}
    for category in Category.objects.filter(family__in=counts, parent=None):
        tops.setdefault(category.family_id, category)
    return [
        CoveredFamily(
            slug=family.slug,
            name=family.name,
            description=family.description,
            entries=counts[family.pk],
            url=tops[family.pk].get_absolute_url() if family.pk in tops else None,
        )
        for family in Family.objects.filter(pk__in=counts)
    ]


def known(entries):
    """What the paste box says it knows: how many failures, in which families."""
    families = covered_families(entries)
    return {"entry_count": sum(family.entries for family in families), "families": families}


def pointed_family(diagnosis, families, entries):
    """The covered family a paste that no entry matched is a failure of: that of its best
    candidate when the paste holds evidence naming that kind of failure (a signature of it, not
    only shared words), else the one family whose entries name its root exception's type (a
    `torch.OutOfMemoryError` with a message no entry has seen yet)."""
    best, root = diagnosis.best, diagnosis.root
    if best is not None and any(_points(reason) for reason in best.reasons):
        named = entries.filter(slug=best.slug)
    elif root is not None:
        named = entries.filter(
            signatures__kind="exception",
            signatures__pattern__in={root.type, root.short_type},
            signatures__weight__gte=POINTING_AMOUNT,
        )
    else:
        return None
    slugs = set(named.values_list("category__family__slug", flat=True))
    found = [family for family in families if family.slug in slugs]
    return found[0] if len(found) == 1 else None


def _points(reason):
    return reason.kind in POINTING and not reason.generic and reason.amount >= POINTING_AMOUNT


def nearest(candidates):
    """The candidates worth showing under a no-match."""
    return [candidate for candidate in candidates if candidate.confidence >= NEAREST_FLOOR]
