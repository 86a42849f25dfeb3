from django import forms
from django.contrib import admin
from django.db import models
from django.forms import Textarea
from django.urls import reverse
from django.utils.html import format_html
from django.utils.text import capfirst

from kb import families
from kb.models import (
    Category,
    Check,
    ConfigFlag,
    Entry,
    EntryAlias,
    Family,
    FamilyRevision,
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
    UnmatchedPaste,
)
from kb.snippets import python_problem, snippet_problem
from kb.taxonomy.family import parse_parts, render_parts
from kb.taxonomy.lint import fact_problem, fact_values
from kb.taxonomy.lists import record_family_revision, record_list_revision
from kb.taxonomy.store import record_revision
from kb.triage import draft_from_unmatched


class OrderedInline(admin.StackedInline):
    extra = 0


class SymptomInline(admin.TabularInline):
    model = Symptom
    extra = 0


class TriggerInline(OrderedInline):
    model = Trigger


class CheckInline(OrderedInline):
    model = Check

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        # Only this entry's triggers make sense as what a check confirms or rules out.
        if db_field.name in ("confirms", "rules_out"):
            entry_id = request.resolver_match.kwargs.get("object_id")
            kwargs["queryset"] = Trigger.objects.filter(entry_id=entry_id)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class FixInline(OrderedInline):
    model = Fix
    show_change_link = True  # snippets are edited on the fix's own page
    filter_horizontal = ["resolves"]

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if db_field.name == "resolves":
            entry_id = request.resolver_match.kwargs.get("object_id")
            kwargs["queryset"] = Trigger.objects.filter(entry_id=entry_id)
        return super().formfield_for_manytomany(db_field, request, **kwargs)


# Output lines and patterns keep their whitespace: the assert message really ends in a space.
KEEP_WHITESPACE = {models.TextField: {"strip": False, "widget": Textarea(attrs={"rows": 2})}}


class SignatureInline(admin.TabularInline):
    model = Signature
    extra = 0
    formfield_overrides = KEEP_WHITESPACE


class SampleLineInline(admin.TabularInline):
    model = SampleLine
    extra = 0
    formfield_overrides = KEEP_WHITESPACE


class FingerprintStepInline(admin.TabularInline):
    model = FingerprintStep
    extra = 0


class ConfigFlagInline(admin.TabularInline):
    model = ConfigFlag
    extra = 0


class SiblingInline(admin.TabularInline):
    model = Sibling
    fk_name = "entry"
    extra = 0
    autocomplete_fields = ["other"]


def _record(request, form, entry):
    """Called once the inlines are saved too, so that the revision holds the whole edit."""
    message = form.cleaned_data.get("revision_message", "")
    record_revision(entry, "admin", author=request.user, message=message)


class EditedOverRevision(forms.ModelForm):
    """A form that edits an entry, or a part of one with a page of its own: the revision the
    author opened travels with the form, and a save over someone else's newer revision is
    refused. The entry's row is locked while this is checked, so two saves at the same moment
    are taken one after the other (SQLite's IMMEDIATE transactions do the same there)."""

    # The revision the author started from; required when changing what exists, so that a
    # request without it cannot skip the check.
    base_revision = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["base_revision"].initial = self._latest_revision()
        self.fields["base_revision"].required = self.instance.pk is not None

    def edited_entry(self):
        return self.instance

    def _latest_revision(self):
        if self.instance.pk is None:
            return 0
        latest = Revision.objects.filter(entry=self.edited_entry()).order_by("-number").first()
        return latest.number if latest else 0

    def clean(self):
        cleaned = super().clean()
        if self.instance.pk is None:
            return cleaned
        if "base_revision" not in cleaned:
            raise forms.ValidationError(
                "This form was sent without the revision it was opened at, so it cannot tell "
                "whether someone saved in between: open the page again and make your edit there."
            )
        Entry.objects.select_for_update().filter(pk=self.edited_entry().pk).exists()
        base, latest = cleaned["base_revision"], self._latest_revision()
        if base != latest:
            raise forms.ValidationError(
                f"Someone saved this entry (revision {latest}) after you opened it at revision "
                f"{base}. Your changes were not saved: open the entry again to see theirs, "
                "then make your edit on top."
            )
        return cleaned


class EntryForm(EditedOverRevision):
    revision_message = forms.CharField(
        required=False, max_length=200, help_text="Why this change; kept in the history."
    )

    def clean_base_loop(self):
        # The content lint's rule (kb/taxonomy/lint.py), so that an entry saved here still loads.
        code = self.cleaned_data["base_loop"]
        if problem := python_problem(code):
            raise forms.ValidationError(capfirst(problem))
        return code

    class Meta:
        model = Entry
        fields = [
            "code",
            "slug",
            "title",
            "status",
            "category",
            "frameworks",
            "summary",
            "explanation",
            "checklist_intro",
            "fixes_note",
            "fingerprint_note",
            "base_loop",
            "base_loop_note",
            "base_loop_frameworks",
        ]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    form = EntryForm
    list_display = ["code", "title", "status", "category", "updated_at"]
    list_filter = ["status", "category", "frameworks"]
    search_fields = ["code", "slug", "title", "summary"]
    filter_horizontal = ["frameworks", "base_loop_frameworks"]
    readonly_fields = ["revision_history"]
    fieldsets = [
        (None, {"fields": ["code", "slug", "title", "status", "category", "frameworks"]}),
        ("Description", {"fields": ["summary", "explanation", "checklist_intro", "fixes_note"]}),
        ("Log fingerprint", {"fields": ["fingerprint_note"]}),
        ("Base training loop", {"fields": ["base_loop", "base_loop_note", "base_loop_frameworks"]}),
        ("History", {"fields": ["revision_message", "revision_history", "base_revision"]}),
    ]
    inlines = [
        SymptomInline,
        TriggerInline,
        CheckInline,
        FixInline,
        SignatureInline,
        SampleLineInline,
        FingerprintStepInline,
        ConfigFlagInline,
        SiblingInline,
    ]

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        _record(request, form, form.instance)

    @admin.display(description="Revisions")
    def revision_history(self, obj):
        if obj.pk is None:
            return "Saved entries keep every revision."
        url = reverse("kb:history", args=[obj.slug])
        return format_html('<a href="{}">{} revision(s)</a>', url, obj.revisions.count())


class SnippetForm(forms.ModelForm):
    """Refuses what the content lint refuses: a snippet the wizard could not render or show."""

    def clean(self):
        cleaned = super().clean()
        code, language = cleaned.get("code"), cleaned.get("language")
        if code is not None and (
            problem := snippet_problem(code, language, families.current().variables)
        ):
            self.add_error("code", capfirst(problem))
        return cleaned


class SnippetInline(OrderedInline):
    model = Snippet
    form = SnippetForm


class FixForm(EditedOverRevision):
    def edited_entry(self):
        return self.instance.entry


@admin.register(Fix)
class FixAdmin(admin.ModelAdmin):
    form = FixForm
    list_display = ["title", "entry"]
    list_filter = ["entry"]
    search_fields = ["title", "entry__code", "entry__title"]
    inlines = [SnippetInline]
    filter_horizontal = ["resolves"]

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        _record(request, form, form.instance.entry)


class SharedListAdmin(admin.ModelAdmin):
    """A list every entry shares: each save or delete keeps the whole list as a revision,
    which also publishes a new content version (visitors see the edit at once)."""

    list_name = None

    def _record(self, request, changed=()):
        record_list_revision(self.list_name, "admin", author=request.user)
        # A category or a framework is also part of its family's family.yaml.
        for family in {obj.family for obj in changed if getattr(obj, "family", None)}:
            record_family_revision(family, "admin", author=request.user)

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        self._record(request, [obj])

    def delete_model(self, request, obj):
        super().delete_model(request, obj)
        self._record(request, [obj])

    def delete_queryset(self, request, queryset):
        changed = list(queryset)
        super().delete_queryset(request, queryset)
        self._record(request, changed)


@admin.register(Category)
class CategoryAdmin(SharedListAdmin):
    list_name = ListRevision.Name.CATEGORIES
    list_display = ["name", "slug", "family", "parent", "order"]
    search_fields = ["name", "slug"]


@admin.register(Framework)
class FrameworkAdmin(SharedListAdmin):
    list_name = ListRevision.Name.FRAMEWORKS
    list_display = ["key", "name", "family", "order"]


@admin.register(EntryAlias)
class EntryAliasAdmin(SharedListAdmin):
    list_name = ListRevision.Name.ALIASES
    list_display = ["kind", "value", "entry"]
    search_fields = ["value", "entry__slug"]


class FamilyForm(forms.ModelForm):
    """A family's parts (family.yaml but its name, description, categories and frameworks)
    are edited as the YAML they are written in, and validated as the loader does."""

    parts_yaml = forms.CharField(
        label="Parts",
        widget=Textarea(attrs={"rows": 30, "cols": 100, "spellcheck": "false"}),
        help_text="Wrapper exceptions, failing rank, generic lines, facts, shared questions and "
        "tailoring variables, as in the family's family.yaml.",
    )

    class Meta:
        model = Family
        fields = ["name", "description", "order"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["parts_yaml"].initial = render_parts(self.instance.parts or {})

    def clean_parts_yaml(self):
        parts, found, _ = parse_parts(self.cleaned_data["parts_yaml"])
        problems = [f"Line {problem.line}: {problem.message}" for problem in found]
        if not problems:
            others = Family.objects.exclude(pk=self.instance.pk).values_list("parts", flat=True)
            facts = fact_values(rule for p in [parts, *others] for rule in p["facts"])
            problems = [
                capfirst(f"question {question['key']!r}: {problem}")
                for question in parts["questions"]
                if (problem := fact_problem(question["fact"], facts))
            ]
        if problems:
            raise forms.ValidationError(problems)
        return parts

    def save(self, commit=True):
        self.instance.parts = self.cleaned_data["parts_yaml"]
        return super().save(commit)


@admin.register(Family)
class FamilyAdmin(admin.ModelAdmin):
    form = FamilyForm
    list_display = ["name", "slug", "order"]
    readonly_fields = ["slug"]

    def has_add_permission(self, request):
        return False  # a family is a folder of content: it arrives with load_taxonomy

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        record_family_revision(obj, "admin", author=request.user)


class HistoryAdmin(admin.ModelAdmin):
    """History is read, never written or removed by hand."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Revision)
class RevisionAdmin(HistoryAdmin):
    list_display = ["entry", "number", "created_at", "author", "source", "message"]
    list_filter = ["source"]
    search_fields = ["entry__code", "entry__slug", "message"]


@admin.register(ListRevision)
class ListRevisionAdmin(HistoryAdmin):
    list_display = ["name", "number", "created_at", "author", "source", "message"]
    list_filter = ["name", "source"]


@admin.register(FamilyRevision)
class FamilyRevisionAdmin(HistoryAdmin):
    list_display = ["family", "number", "created_at", "author", "source", "message"]
    list_filter = ["family", "source"]


@admin.register(UnmatchedPaste)
class UnmatchedPasteAdmin(admin.ModelAdmin):
    """The queue of pastes nobody recognised, most recent first; staff turn them into drafts."""

    list_display = ["__str__", "count", "first_seen", "last_seen", "draft"]
    search_fields = ["masked_text", "normalised_text"]
    readonly_fields = [
        "fingerprint",
        "masked_text",
        "normalised_text",
        "count",
        "first_seen",
        "last_seen",
        "draft",
    ]
    actions = ["make_drafts"]

    def has_add_permission(self, request):
        return False

    @admin.action(description="Create a draft entry from each selected paste")
    def make_drafts(self, request, queryset):
        for paste in queryset:
            entry = draft_from_unmatched(paste, author=request.user)
            url = reverse("admin:kb_entry_change", args=[entry.pk])
            self.message_user(request, format_html('Draft <a href="{}">{}</a> ready.', url, entry))
