"""The wizard's content read from the database: every entry a visitor (or, with drafts, staff)
may see, as wizard/content.py's plain data. Read once per content version and shared by the
requests of the process, as the engine is: a wizard step then reads nothing but the version."""

from dataclasses import dataclass
from functools import cached_property

from kb.caching import per_content_version
from kb.models import Entry
from kb.models import Framework as FrameworkRow
from kb.taxonomy.store import entry_document
from wizard import content


@dataclass(frozen=True)
class Content:
    entries: dict  # slug -> content.Entry
    frameworks: dict  # key -> content.Framework

    @cached_property
    def question_keys(self):
        return frozenset(check.key for entry in self.entries.values() for check in entry.checks)


@per_content_version
def current(staff=False):
    """What the wizard may show: drafts too for staff."""
    frameworks = {f.key: content.Framework(f.key, f.name) for f in FrameworkRow.objects.all()}
    rows = Entry.objects.all() if staff else Entry.objects.published()
    entries = {
        row.slug: content.Entry.from_document(
            entry_document(row), frameworks, row.get_absolute_url()
        )
        for row in rows.with_parts()
    }
    return Content(entries, frameworks)
