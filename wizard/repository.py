"""The wizard's content read from the database: every entry a visitor (or, with drafts, staff)
may see, as wizard/content.py's plain data. Read once per content version and shared by the
requests of the process, as the engine is: a wizard step then reads nothing but the version.
Its texts are rendered to HTML then too, so no step renders Markdown that content holds."""

from collections import OrderedDict
from dataclasses import dataclass, field, replace
from functools import cached_property

from kb.caching import per_content_version
from kb.models import Category, Entry
from kb.models import Framework as FrameworkRow
from kb.rendering import first_sentence, render_inline_markdown, render_markdown
from kb.taxonomy.store import entry_document
from wizard import content
from wizard.blank import category_paths
from wizard.scope import entry_scope

SCOPES = 2048  # the paste starts seen most recently


@dataclass(frozen=True)
class Content:
    entries: dict  # slug -> content.Entry
    frameworks: dict  # key -> content.Framework
    _scopes: OrderedDict = field(default_factory=OrderedDict, compare=False, repr=False)

    @cached_property
    def entry_scopes(self):
        """{slug: the scope of a start from that entry}, all built at once when the content
        is first asked for (a few milliseconds), so that no step builds one."""
        return {slug: entry_scope(entry, self.entries) for slug, entry in self.entries.items()}

    def scope(self, key, build):
        """The scope of a paste start under `key` (its candidates), built once per content
        version by build(): the requests of a process share it. The most recent SCOPES are
        kept."""
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
    _render_texts(entries.values())
    return Content(entries, frameworks)


def _render_texts(entries):
    """Every content text the step and result templates show, rendered as they render it:
    kb/rendering.py keeps each text's HTML, so the first visitor to a question does not pay
    for it, and an edit renders only the texts it changed."""
    for entry in entries:
        render_inline_markdown(entry.title)  # a question's reason may name it
        for check in entry.checks:
            render_inline_markdown(check.question)
            render_markdown(check.how_to_check)
            render_inline_markdown(check.how_to_check)  # what would settle an undecided result
        for trigger in entry.triggers:
            render_inline_markdown(trigger.text)
            render_inline_markdown(first_sentence(trigger.text))
            if trigger.note:
                render_markdown(trigger.note)
        for fix in entry.fixes:
            render_markdown(fix.why)
