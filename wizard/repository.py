"""The wizard's content read from the database: every entry a visitor (or, with drafts, staff)
may see, as wizard/content.py's plain data. Read once per content version and shared by the
requests of the process, as the engine is: a wizard step then reads nothing but the version."""

from collections import OrderedDict
from dataclasses import dataclass, field, replace
from functools import cached_property

from kb.caching import per_content_version
from kb.models import Category, Entry
from kb.models import Framework as FrameworkRow
from kb.taxonomy.store import entry_document
from wizard import content
from wizard.blank import category_paths

SCOPES = 2048  # an entry start each, and the paste starts seen most recently


@dataclass(frozen=True)
class Content:
    entries: dict  # slug -> content.Entry
    frameworks: dict  # key -> content.Framework
    _scopes: OrderedDict = field(default_factory=OrderedDict, compare=False, repr=False)

    def scope(self, key, build):
        """The scope under `key` (a start), built once per content version by build(): the
        requests of a process share it. The most recent SCOPES are kept."""
        scopes = self._scopes
        if key in scopes:
            scopes.move_to_end(key)
            return scopes[key]
        scope = scopes[key] = build()
        if len(scopes) > SCOPES:
            scopes.popitem(last=False)
        return scope

    @cached_property
    def question_keys(self):
        return frozenset(check.key for entry in self.entries.values() for check in entry.checks)


@per_content_version
def current(staff=False):
    """What the wizard may show: drafts too for staff."""
    frameworks = {f.key: content.Framework(f.key, f.name) for f in FrameworkRow.objects.all()}
    rows = Entry.objects.all() if staff else Entry.objects.published()
    areas = category_paths(Category.objects.values_list("slug", "name", "parent__slug"))
    entries = {
        row.slug: replace(
            content.Entry.from_document(entry_document(row), frameworks, row.get_absolute_url()),
            areas=areas[row.category.slug],
            seen=next((s.text for s in row.symptoms.all()), ""),
        )
        for row in rows.with_parts()
    }
    return Content(entries, frameworks)
