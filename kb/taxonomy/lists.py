"""The history of what entries share: the lists (the category tree, the frameworks, the old
addresses that redirect), each edit keeping the whole list in the fixture format as a
ListRevision, and the families, each edit keeping the family's whole family.yaml as a
FamilyRevision (an entry's own edits are Revisions, kb/taxonomy/store.py)."""

from kb.caching import content_changed
from kb.models import Category, EntryAlias, FamilyRevision, Framework, ListRevision
from kb.taxonomy.document import CATEGORIES
from kb.taxonomy.family import render_family
from kb.taxonomy.schema import without_defaults, write_yaml


def category_rows(family=None):
    """Parents before their children, siblings in order: the order a person reads a tree in.
    Only the family's, when one is given."""
    children = {}
    categories = Category.objects.select_related("parent")
    if family is not None:
        categories = categories.filter(family=family)
    for category in categories:
        children.setdefault(category.parent_id, []).append(category)
    rows, stack = [], list(reversed(children.get(None, [])))
    while stack:
        category = stack.pop()
        rows.append(
            {
                "slug": category.slug,
                "name": category.name,
                "parent": category.parent.slug if category.parent else None,
                "description": category.description,
            }
        )
        stack.extend(reversed(children.get(category.pk, [])))
    return rows


def family_document(family):
    """The family as its family.yaml reads: the same dict that parse_family returns."""
    return {
        "name": family.name,
        "description": family.description,
        "categories": category_rows(family),
        "frameworks": [{"key": f.key, "name": f.name} for f in family.frameworks.all()],
        **family.parts,
    }


def family_text(family):
    return render_family(family_document(family))


def record_family_revision(family, source, author=None, message=""):
    """Keep the family's current family.yaml as a new revision, unless nothing changed."""
    revision = FamilyRevision.objects.record(
        family_text(family), source, author, message, family=family
    )
    if revision is not None:
        content_changed()
    return revision


def list_document(name):
    if name == ListRevision.Name.CATEGORIES:
        return write_yaml(without_defaults(CATEGORIES, category_rows()))
    if name == ListRevision.Name.FRAMEWORKS:
        return write_yaml([{"key": f.key, "name": f.name} for f in Framework.objects.all()])
    aliases = EntryAlias.objects.select_related("entry").order_by("kind", "value")
    return write_yaml([{"kind": a.kind, "value": a.value, "entry": a.entry.slug} for a in aliases])


def record_list_revision(name, source, author=None, message=""):
    """Keep the list's current document as a new revision, unless nothing changed."""
    revision = ListRevision.objects.record(list_document(name), source, author, message, name=name)
    if revision is not None:
        content_changed()
    return revision
