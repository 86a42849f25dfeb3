"""The history of the lists every entry shares: the category tree, the frameworks and the old
addresses that redirect. Each edit keeps the whole list, in the fixture format, as a
ListRevision (an entry's own edits are Revisions, kb/taxonomy/store.py)."""

from kb.caching import content_changed
from kb.models import Category, EntryAlias, Framework, ListRevision
from kb.taxonomy.document import CATEGORIES
from kb.taxonomy.schema import without_defaults, write_yaml


def category_rows():
    """Parents before their children, siblings in order: the order a person reads a tree in."""
    children = {}
    for category in Category.objects.select_related("parent"):
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
