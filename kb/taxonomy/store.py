"""Moving the taxonomy between fixture files and the database.

`read_taxonomy` (kb/taxonomy/reading.py) reads and validates every file first, with every check
`check_taxonomy` makes; `apply_taxonomy` then writes everything in one transaction, so an invalid
file leaves the database as it was.
`dump_taxonomy` writes the database back in the same format. `record_revision` keeps the
history of every entry edit.
"""

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction

from kb import fulltext
from kb.caching import content_changed
from kb.models import (
    Category,
    Check,
    ConfigFlag,
    Entry,
    Family,
    FingerprintStep,
    Fix,
    Framework,
    ListRevision,
    Revision,
    SampleLine,
    Sibling,
    Signature,
    Snippet,
    Symptom,
    Trigger,
)
from kb.taxonomy.document import normalise_newlines, render_entry
from kb.taxonomy.family import parts_of
from kb.taxonomy.lists import family_text, record_family_revision, record_list_revision
from kb.taxonomy.reading import (
    ENTRIES_DIR,
    FAMILIES_DIR,
    FAMILY_FILE,
    WHAT_A_TAXONOMY_FOLDER_HOLDS,
    NotATaxonomyFolder,
    TaxonomyError,
    read_taxonomy,
)


@dataclass
class LoadReport:
    created: list = field(default_factory=list)
    updated: list = field(default_factory=list)
    unchanged: list = field(default_factory=list)
    kept_local_edits: list = field(default_factory=list)


def content_hash(text):
    return hashlib.sha256(text.encode()).hexdigest()


def entry_document(entry):
    """The entry as a document: the same dict that parse_entry returns for its file. It reads
    the parts with .all(), so an entry fetched with_parts() costs no further query (its
    siblings are then only those the queryset holds)."""
    triggers = list(entry.triggers.all())
    by_pk = {trigger.pk: trigger.key for trigger in triggers}
    return {
        "slug": entry.slug,
        "code": entry.code,
        "title": entry.title,
        "status": entry.status,
        "category": entry.category.slug,
        "frameworks": [framework.key for framework in entry.frameworks.all()],
        "summary": entry.summary,
        "symptoms": [symptom.text for symptom in entry.symptoms.all()],
        "triggers": [
            {
                "key": trigger.key,
                "text": trigger.text,
                "verified_on": list(trigger.verified_on),
                "not_reproduced_on": list(trigger.not_reproduced_on),
                "together_with": list(trigger.together_with),
                "note": trigger.note,
            }
            for trigger in triggers
        ],
        "checklist_intro": entry.checklist_intro,
        "checks": [
            {
                "key": check.key,
                "question": check.question,
                "how_to_check": check.how_to_check,
                "positive_means": check.positive_means,
                "confirms": by_pk.get(check.confirms_id),
                "rules_out": by_pk.get(check.rules_out_id),
                "expected": check.expected,
            }
            for check in entry.checks.all()
        ],
        "fixes_note": entry.fixes_note,
        "fixes": [
            {
                "key": fix.key,
                "title": fix.title,
                "why": fix.why,
                "resolves": [by_pk[t.pk] for t in fix.resolves.all()],
                "snippets": [
                    {
                        "framework": snippet.framework.key,
                        "language": snippet.language,
                        "code": snippet.code,
                        "note": snippet.note,
                    }
                    for snippet in fix.snippets.all()
                ],
            }
            for fix in entry.fixes.all()
        ],
        "signatures": [
            {
                "kind": signature.kind,
                "pattern": signature.pattern,
                "weight": float(signature.weight),
                "scope": signature.scope,
                "note": signature.note,
            }
            for signature in entry.signatures.all()
        ],
        "sample_output": [{"text": s.text, "note": s.note} for s in entry.sample_lines.all()],
        "fingerprint": {
            "note": entry.fingerprint_note,
            "steps": [
                {"level": step.level, "pattern": step.pattern, "note": step.note}
                for step in entry.fingerprint.all()
            ],
        },
        "base_loop": {
            "code": entry.base_loop,
            "note": entry.base_loop_note,
            "applies_to": [framework.key for framework in entry.base_loop_frameworks.all()],
            "config_flags": [
                {"framework": flag.framework.key, "flag": flag.flag, "replaces": flag.replaces}
                for flag in entry.config_flags.all()
            ],
        },
        "siblings": [
            {
                "slug": sibling.other.slug,
                "how_to_tell_apart": sibling.how_to_tell_apart,
                "prints_this": sibling.prints_this,
            }
            for sibling in entry.siblings.all()
        ],
        "explanation": entry.explanation,
    }


def entry_text(entry):
    return render_entry(_unix_newlines(entry_document(entry)))


def _unix_newlines(document):
    """Admin forms may submit \\r\\n; files and revisions always hold \\n."""
    if isinstance(document, dict):
        return {key: _unix_newlines(value) for key, value in document.items()}
    if isinstance(document, list):
        return [_unix_newlines(value) for value in document]
    if isinstance(document, str):
        return normalise_newlines(document)
    return document


@transaction.atomic
def record_revision(entry, source, author=None, message="", text=None):
    """Store the entry's current document as a new revision, unless nothing changed. The
    entry's row is locked first: two edits recorded at once get numbers one after the other.
    `text` is the document when the caller wrote the entry from it (the loader), which spares
    reading it back: what is written reads back the same, byte for byte."""
    Entry.objects.select_for_update().filter(pk=entry.pk).exists()
    text = entry_text(entry) if text is None else text
    revision = Revision.objects.record(text, source, author, message, entry=entry)
    if revision is not None:
        fulltext.index_entry(entry)
        content_changed()
    return revision


def _write_entry_fields(entry, doc, categories, frameworks):
    entry.slug = doc["slug"]
    entry.code = doc["code"]
    entry.title = doc["title"]
    entry.status = doc["status"]
    entry.category = categories[doc["category"]]
    entry.summary = doc["summary"]
    entry.explanation = doc["explanation"]
    entry.checklist_intro = doc["checklist_intro"]
    entry.fixes_note = doc["fixes_note"]
    entry.fingerprint_note = doc["fingerprint"]["note"]
    entry.base_loop = doc["base_loop"]["code"]
    entry.base_loop_note = doc["base_loop"]["note"]
    entry.save()
    entry.frameworks.set([frameworks[key] for key in doc["frameworks"]])
    entry.base_loop_frameworks.set([frameworks[key] for key in doc["base_loop"]["applies_to"]])

    for related in (
        entry.symptoms,
        entry.checks,
        entry.fixes,
        entry.triggers,
        entry.signatures,
        entry.sample_lines,
        entry.fingerprint,
        entry.config_flags,
    ):
        related.all().delete()
    Symptom.objects.bulk_create(
        Symptom(entry=entry, order=i, text=text) for i, text in enumerate(doc["symptoms"])
    )
    triggers = {}
    for i, item in enumerate(doc["triggers"]):
        triggers[item["key"]] = Trigger.objects.create(
            entry=entry,
            order=i,
            key=item["key"],
            text=item["text"],
            verified_on=item["verified_on"],
            not_reproduced_on=item["not_reproduced_on"],
            together_with=item["together_with"],
            note=item["note"],
        )
    Check.objects.bulk_create(
        Check(
            entry=entry,
            order=i,
            key=item["key"],
            question=item["question"],
            how_to_check=item["how_to_check"],
            positive_means=item["positive_means"],
            confirms=triggers.get(item["confirms"]),
            rules_out=triggers.get(item["rules_out"]),
            expected=item["expected"],
        )
        for i, item in enumerate(doc["checks"])
    )
    for i, item in enumerate(doc["fixes"]):
        fix = Fix.objects.create(
            entry=entry, order=i, key=item["key"], title=item["title"], why=item["why"]
        )
        fix.resolves.set([triggers[key] for key in item["resolves"]])
        Snippet.objects.bulk_create(
            Snippet(
                fix=fix,
                order=j,
                framework=frameworks[snippet["framework"]],
                language=snippet["language"],
                code=snippet["code"],
                note=snippet["note"],
            )
            for j, snippet in enumerate(item["snippets"])
        )
    Signature.objects.bulk_create(
        Signature(entry=entry, order=i, **item) for i, item in enumerate(doc["signatures"])
    )
    SampleLine.objects.bulk_create(
        SampleLine(entry=entry, order=i, **item) for i, item in enumerate(doc["sample_output"])
    )
    FingerprintStep.objects.bulk_create(
        FingerprintStep(entry=entry, order=i, **item)
        for i, item in enumerate(doc["fingerprint"]["steps"])
    )
    ConfigFlag.objects.bulk_create(
        ConfigFlag(
            entry=entry,
            order=i,
            framework=frameworks[item["framework"]],
            flag=item["flag"],
            replaces=item["replaces"],
        )
        for i, item in enumerate(doc["base_loop"]["config_flags"])
    )


def _write_siblings(entry, doc, entries):
    entry.siblings.all().delete()
    Sibling.objects.bulk_create(
        Sibling(
            entry=entry,
            order=i,
            other=entries[item["slug"]],
            how_to_tell_apart=item["how_to_tell_apart"],
            prints_this=item["prints_this"],
        )
        for i, item in enumerate(doc["siblings"])
    )


def _find_existing(doc):
    return (
        Entry.objects.filter(slug=doc["slug"]).first()
        or Entry.objects.filter(code=doc["code"]).first()
    )


@transaction.atomic
def apply_taxonomy(taxonomy, force=False):
    """Upsert everything read by read_taxonomy. Entries edited in the admin since they were last
    loaded are kept (and reported) unless `force`: their edit would otherwise be lost."""
    families, frameworks, categories = {}, {}, {}
    for i, source in enumerate(taxonomy.families):
        doc = source.document
        family, _ = Family.objects.update_or_create(
            slug=source.slug,
            defaults={
                "name": doc["name"],
                "description": doc["description"],
                "order": i,
                "parts": parts_of(doc),
            },
        )
        families[source.slug] = family
        for j, item in enumerate(doc["frameworks"]):
            frameworks[item["key"]], _ = Framework.objects.update_or_create(
                key=item["key"], defaults={"name": item["name"], "order": j, "family": family}
            )
        for j, item in enumerate(doc["categories"]):
            categories[item["slug"]], _ = Category.objects.update_or_create(
                slug=item["slug"],
                defaults={
                    "name": item["name"],
                    "description": item["description"],
                    "order": j,
                    "family": family,
                },
            )
    for item in taxonomy.categories:
        category = categories[item["slug"]]
        category.parent = categories.get(item["parent"])
        category.save(update_fields=["parent"])
    for family in families.values():
        record_family_revision(family, source="load_taxonomy")
    for name in (ListRevision.Name.FRAMEWORKS, ListRevision.Name.CATEGORIES):
        record_list_revision(name, source="load_taxonomy")

    report = LoadReport()
    entries, changed = {}, []
    for source in taxonomy.entries:
        doc = source.document
        text = render_entry(doc)
        entry = _find_existing(doc)
        if entry is not None:
            current = entry_text(entry)
            entries[doc["slug"]] = entry
            if current == text:
                report.unchanged.append(entry.slug)
                if entry.loaded_hash != content_hash(text):
                    Entry.objects.filter(pk=entry.pk).update(loaded_hash=content_hash(text))
                continue
            edited_here = entry.loaded_hash and entry.loaded_hash != content_hash(current)
            if edited_here and not force:
                report.kept_local_edits.append(entry.slug)
                continue
            report.updated.append(doc["slug"])
        else:
            entry = Entry()
            report.created.append(doc["slug"])
        _write_entry_fields(entry, doc, categories, frameworks)
        entries[doc["slug"]] = entry
        changed.append((entry, doc, text))

    for entry, doc, _ in changed:
        _write_siblings(entry, doc, entries)
    for entry, _, text in changed:
        Entry.objects.filter(pk=entry.pk).update(loaded_hash=content_hash(text))
        record_revision(entry, source="load_taxonomy", text=text)
    written = {entry.pk for entry, _, _ in changed}  # record_revision indexed these
    for entry in entries.values():
        if entry.pk not in written:
            fulltext.index_entry(entry)  # fills the index of a database migrated just now
    return report


def load_taxonomy(root, force=False):
    return apply_taxonomy(read_taxonomy(root), force=force)


def dump_taxonomy(root):
    """Write the database to `root` in the fixture format; returns the paths written.
    Entry files whose entry no longer exists (e.g. renamed in the admin) are removed."""
    root = Path(root)
    homeless = Category.objects.filter(family=None).values_list("slug", flat=True)
    if homeless:
        # A database migrated from before families, not loaded since: no folder to write to.
        raise TaxonomyError(
            [
                f"category {slug!r} belongs to no family: run load_taxonomy first"
                for slug in homeless
            ]
        )
    written, keep = [], set()

    def write(path, text):
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise NotATaxonomyFolder(
                f"cannot write a taxonomy folder at {root}, a file is in the way "
                f"(a taxonomy folder holds {WHAT_A_TAXONOMY_FOLDER_HOLDS})"
            ) from None
        path.write_text(text, "utf-8")
        written.append(path)
        keep.add(path)

    for family in Family.objects.prefetch_related("frameworks"):
        folder = root / FAMILIES_DIR / family.slug
        write(folder / FAMILY_FILE, family_text(family))
        (folder / ENTRIES_DIR).mkdir(exist_ok=True)
    for entry in Entry.objects.select_related("category__family").order_by("slug"):
        folder = root / FAMILIES_DIR / entry.category.family.slug / ENTRIES_DIR
        write(folder / f"{entry.slug}.md", entry_text(entry))
    for stale in (root / FAMILIES_DIR).glob(f"*/{ENTRIES_DIR}/*.md"):
        if stale not in keep:
            stale.unlink()
    return written
