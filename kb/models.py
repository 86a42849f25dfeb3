"""The failure taxonomy as records.

An Entry is one failure. Everything its source document says is a field or a row here:
symptoms, trigger contexts, the diagnostic checklist, fixes with per-framework snippets, error
signatures, sample output, the log fingerprint, the base training loop and sibling links.
The shipped content lives in fixtures/ (kb/taxonomy/ reads and writes it); every edit of an
entry is kept as a Revision holding the entry's whole document.
"""

from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils import timezone

from kb.patterns import pattern_error


class Family(models.Model):
    """A failure family: a folder of content (fixtures/families/<slug>/). Its categories and
    frameworks are rows of their own; `parts` holds the rest of its family.yaml (the engine's
    wrappers, generic lines and fact rules, the shared questions, the tailoring variables) as
    kb/taxonomy/family.py reads them."""

    slug = models.SlugField(max_length=60, unique=True)
    name = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    order = models.PositiveIntegerField(default=0)
    parts = models.JSONField(default=dict, editable=False)

    class Meta:
        ordering = ["order", "slug"]
        verbose_name_plural = "families"

    def __str__(self):
        return self.name


class Framework(models.Model):
    """A training stack a fix can be written for, brought by a family."""

    key = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=80)
    order = models.PositiveIntegerField(default=0)
    family = models.ForeignKey(
        Family, null=True, on_delete=models.PROTECT, related_name="frameworks"
    )

    class Meta:
        ordering = ["order", "key"]

    def __str__(self):
        return self.name


class Category(models.Model):
    slug = models.SlugField(max_length=80, unique=True)
    name = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="children"
    )
    order = models.PositiveIntegerField(default=0)
    family = models.ForeignKey(
        Family, null=True, on_delete=models.PROTECT, related_name="categories"
    )

    class Meta:
        ordering = ["order", "name"]
        verbose_name_plural = "categories"

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("kb:category", args=[self.slug])

    def ancestors(self):
        """Root first, self excluded."""
        chain, node = [], self.parent
        while node is not None and node not in chain and node != self:
            chain.append(node)
            node = node.parent
        return chain[::-1]

    def clean(self):
        node = self.parent
        while node is not None:
            if node.pk == self.pk:
                raise ValidationError({"parent": "A category cannot be its own ancestor."})
            node = node.parent


class EntryQuerySet(models.QuerySet):
    def published(self):
        return self.filter(status=Entry.Status.PUBLISHED)

    def visible_to(self, user):
        return self if user.is_staff else self.published()

    def resolve(self, kind, value):
        """(entry, moved) for the entry of these with this slug or code (codes in any case),
        following old addresses: `moved` is True when `value` is an old one, which should
        redirect. (None, False) when no entry of these answers to it."""
        lookup = {"slug": "slug", "code": "code__iexact"}[kind]
        entry = self.filter(**{lookup: value}).first()
        if entry is not None:
            return entry, False
        alias = EntryAlias.objects.filter(kind=kind, value__iexact=value).first()
        entry = self.filter(pk=alias.entry_id).first() if alias is not None else None
        return entry, entry is not None

    def with_checklist(self):
        """With what a diagnosis walks through: the trigger contexts, the checks (with the
        triggers they confirm or rule out), the frameworks, and the fixes with their snippets."""
        checks = Check.objects.select_related("confirms", "rules_out")
        return self.prefetch_related(
            "triggers",
            "frameworks",
            models.Prefetch("checks", queryset=checks),
            "fixes__resolves",
            "fixes__snippets__framework",
        )

    def with_parts(self):
        """With every part an entry's page shows. Its siblings are only those among these
        entries, so that a visitor's page links to no draft."""
        siblings = Sibling.objects.filter(other__in=self).select_related("other")
        return (
            self.with_checklist()
            .select_related("category")
            .prefetch_related(
                "base_loop_frameworks",
                "symptoms",
                "triggers__resolved_by",
                "signatures",
                "sample_lines",
                "fingerprint",
                "config_flags__framework",
                models.Prefetch("siblings", queryset=siblings),
            )
        )


class Entry(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        PUBLISHED = "published", "Published"

    slug = models.SlugField(max_length=100, unique=True)
    code = models.CharField(
        max_length=20, unique=True, help_text="Stable short error code, e.g. ABC-001."
    )
    title = models.CharField(max_length=200)
    summary = models.TextField(help_text="One line: what fails and why.")
    explanation = models.TextField(help_text="Markdown.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    category = models.ForeignKey(Category, on_delete=models.PROTECT, related_name="entries")
    frameworks = models.ManyToManyField(Framework, blank=True, related_name="entries")
    checklist_intro = models.TextField(blank=True, help_text="How to apply the checklist.")
    fixes_note = models.TextField(blank=True, help_text="What the fixes have in common.")
    fingerprint_note = models.TextField(blank=True, help_text="How to alert on the fingerprint.")
    base_loop = models.TextField(
        blank=True, help_text="The training loop that fixes are tailored from (Python)."
    )
    base_loop_note = models.TextField(
        blank=True, help_text="How to adapt the base loop to other frameworks."
    )
    base_loop_frameworks = models.ManyToManyField(
        Framework, blank=True, related_name="+", help_text="Where the base loop's pattern holds."
    )
    # Hash of the fixture document this entry was last loaded from: lets load_taxonomy tell
    # an edit made in the admin since then from a change in git.
    loaded_hash = models.CharField(max_length=64, blank=True, editable=False)
    # What full-text search reads (kb/fulltext.py keeps it, and SQLite's FTS5 table, current).
    search_text = models.TextField(blank=True, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    objects = EntryQuerySet.as_manager()

    class Meta:
        ordering = ["code"]
        verbose_name_plural = "entries"

    def __str__(self):
        return f"{self.code} {self.title}"

    def save(self, *args, **kwargs):
        self._keep_old_addresses()
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse("kb:entry", args=[self.slug])

    @property
    def is_published(self):
        return self.status == self.Status.PUBLISHED

    def _keep_old_addresses(self):
        """A published slug or code is a promise: when it changes, the old one redirects."""
        if self.pk is None:
            return
        old = Entry.objects.filter(pk=self.pk).values("slug", "code", "status").first()
        if old is None or old["status"] != self.Status.PUBLISHED:
            return
        for kind, value in (("slug", old["slug"]), ("code", old["code"])):
            if value != getattr(self, kind):
                EntryAlias.objects.update_or_create(
                    kind=kind, value=value, defaults={"entry_id": self.pk}
                )
        # The entry may be taking back an address it once gave up.
        EntryAlias.objects.filter(kind="slug", value=self.slug).delete()
        EntryAlias.objects.filter(kind="code", value=self.code).delete()


class EntryAlias(models.Model):
    """An old slug or code of an entry, kept so that old links keep working."""

    kind = models.CharField(max_length=4, choices=[("slug", "slug"), ("code", "code")])
    value = models.CharField(max_length=100)
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="aliases")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "value"], name="unique_alias")]
        verbose_name_plural = "entry aliases"

    def __str__(self):
        return f"{self.kind} {self.value} → {self.entry.slug}"


class Symptom(models.Model):
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="symptoms")
    order = models.PositiveIntegerField(default=0)
    text = models.TextField()

    class Meta:
        ordering = ["order", "pk"]

    def __str__(self):
        return self.text


class Trigger(models.Model):
    """A context in which the failure happens; its key is stable (the wizard and fixes use it)."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="triggers")
    order = models.PositiveIntegerField(default=0)
    key = models.SlugField(max_length=60)
    text = models.TextField()
    verified_on = models.JSONField(
        default=list, blank=True, help_text="PyTorch versions where this trigger reproduced."
    )
    not_reproduced_on = models.JSONField(
        default=list, blank=True, help_text="PyTorch versions where it was tried and did not."
    )
    together_with = models.JSONField(
        default=list,
        blank=True,
        help_text="Keys of this entry's triggers that cause the failure together with this one.",
    )
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["order", "pk"]
        constraints = [models.UniqueConstraint(fields=["entry", "key"], name="unique_trigger_key")]

    def __str__(self):
        return self.key


class Check(models.Model):
    """One item of the "is it this failure?" checklist, a positive signal for this entry."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="checks")
    order = models.PositiveIntegerField(default=0)
    key = models.SlugField(max_length=60)
    question = models.TextField(help_text="What the wizard asks.")
    how_to_check = models.TextField()
    positive_means = models.TextField(help_text="What a yes tells you.")
    confirms = models.ForeignKey(
        Trigger, null=True, blank=True, on_delete=models.SET_NULL, related_name="confirmed_by"
    )
    rules_out = models.ForeignKey(
        Trigger, null=True, blank=True, on_delete=models.SET_NULL, related_name="ruled_out_by"
    )
    expected = models.CharField(
        max_length=3,
        blank=True,
        choices=[("yes", "yes"), ("no", "no")],
        help_text="The answer this entry expects whatever its trigger (blank: no expectation).",
    )

    class Meta:
        ordering = ["order", "pk"]
        constraints = [models.UniqueConstraint(fields=["entry", "key"], name="unique_check_key")]

    def __str__(self):
        return self.question

    def clean(self):
        for name in ("confirms", "rules_out"):
            trigger = getattr(self, name)
            if trigger is not None and trigger.entry_id != self.entry_id:
                raise ValidationError({name: "Pick a trigger of this entry."})


class Fix(models.Model):
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="fixes")
    order = models.PositiveIntegerField(default=0)
    key = models.SlugField(max_length=60)
    title = models.CharField(max_length=200)
    why = models.TextField(help_text="Why it works (Markdown).")
    resolves = models.ManyToManyField(Trigger, blank=True, related_name="resolved_by")

    class Meta:
        ordering = ["order", "pk"]
        constraints = [models.UniqueConstraint(fields=["entry", "key"], name="unique_fix_key")]
        verbose_name_plural = "fixes"

    def __str__(self):
        return self.title


class Snippet(models.Model):
    fix = models.ForeignKey(Fix, on_delete=models.CASCADE, related_name="snippets")
    framework = models.ForeignKey(Framework, on_delete=models.PROTECT, related_name="snippets")
    order = models.PositiveIntegerField(default=0)
    language = models.CharField(max_length=20, default="python")
    code = models.TextField()
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["order", "pk"]

    def __str__(self):
        return f"{self.fix} ({self.framework.key})"


class Signature(models.Model):
    """Text that identifies the failure in a paste. Patterns run through RE2 only."""

    class Kind(models.TextChoices):
        LITERAL = "literal", "Literal text"
        REGEX = "regex", "Regular expression (RE2)"
        EXCEPTION = "exception", "Exception type"
        ASSERT_SITE = "assert_site", "C++ assert site"

    class Scope(models.TextChoices):
        ROOT = "root", "Root exception line"
        ANY = "any", "Any line"

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="signatures")
    order = models.PositiveIntegerField(default=0)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    pattern = models.TextField()
    weight = models.FloatField(default=1.0)
    scope = models.CharField(max_length=4, choices=Scope.choices, default=Scope.ANY)
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["order", "pk"]

    def __str__(self):
        return f"{self.kind}: {self.pattern}"

    def clean(self):
        error = pattern_error(self.kind, self.pattern)
        if error:
            raise ValidationError({"pattern": error})


class SampleLine(models.Model):
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="sample_lines")
    order = models.PositiveIntegerField(default=0)
    text = models.TextField()
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["order", "pk"]

    def __str__(self):
        return self.text


class FingerprintStep(models.Model):
    """One step of the log fingerprint: a line at `level` matching `pattern` (empty = any)."""

    class Level(models.TextChoices):
        DEBUG = "DEBUG"
        INFO = "INFO"
        WARNING = "WARNING"
        ERROR = "ERROR"
        CRITICAL = "CRITICAL"

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="fingerprint")
    order = models.PositiveIntegerField(default=0)
    level = models.CharField(max_length=8, choices=Level.choices)
    pattern = models.TextField(blank=True, help_text="RE2 pattern; empty matches any line.")
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["order", "pk"]

    def __str__(self):
        return f"{self.level} {self.pattern or '(any line)'}"

    def clean(self):
        error = pattern_error("regex", self.pattern) if self.pattern else None
        if error:
            raise ValidationError({"pattern": error})


class ConfigFlag(models.Model):
    """A framework's declarative flag that replaces imperative code in the base loop."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="config_flags")
    order = models.PositiveIntegerField(default=0)
    framework = models.ForeignKey(Framework, on_delete=models.PROTECT, related_name="+")
    flag = models.CharField(max_length=120)
    replaces = models.TextField(help_text="What in the base loop the flag stands for.")

    class Meta:
        ordering = ["order", "pk"]

    def __str__(self):
        return f"{self.framework.key}: {self.flag}"


class Sibling(models.Model):
    """A related entry that is easy to confuse with this one."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="siblings")
    order = models.PositiveIntegerField(default=0)
    other = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="sibling_of")
    how_to_tell_apart = models.TextField()
    prints_this = models.BooleanField(
        default=False,
        help_text="The other entry's failure can end in this entry's message (a desync that "
        "ends in this timeout): a paste of this entry does not rule the other out.",
    )

    class Meta:
        ordering = ["order", "pk"]

    def __str__(self):
        return f"{self.entry.slug} ↔ {self.other.slug}"

    def clean(self):
        if self.other_id and self.other_id == self.entry_id:
            raise ValidationError({"other": "An entry is not its own sibling."})


class HistoryQuerySet(models.QuerySet):
    def record(self, document, source, author=None, message="", **subject):
        """A new revision of `subject` (entry=..., name=...) holding `document`, numbered
        after its latest; None when the latest already holds that document."""
        last = self.filter(**subject).order_by("-number").first()
        if last is not None and last.document == document:
            return None
        number = last.number + 1 if last else 1
        return self.create(
            number=number, source=source, author=author, message=message, document=document,
            **subject,
        )  # fmt: skip


class History(models.Model):
    """What every revision holds: the whole document after one edit, in the fixture format,
    numbered in order, with who made the edit, through what and why."""

    number = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    source = models.CharField(max_length=20, help_text="admin, load_taxonomy, ...")
    message = models.CharField(max_length=200, blank=True)
    document = models.TextField()

    objects = HistoryQuerySet.as_manager()

    class Meta:
        abstract = True


class Revision(History):
    """The whole document of an entry after one edit."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="revisions")

    class Meta:
        ordering = ["-number"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "number"], name="unique_revision_number")
        ]

    def __str__(self):
        return f"{self.entry.slug} r{self.number}"

    def get_absolute_url(self):
        return reverse("kb:revision", args=[self.entry.slug, self.number])


class ListRevision(History):
    """One of the lists every entry shares (the category tree, the frameworks, the old
    addresses that redirect) after one edit: the history of what is not one entry's
    document. Like Revision, recording one publishes a new content version."""

    class Name(models.TextChoices):
        CATEGORIES = "categories", "Categories"
        FRAMEWORKS = "frameworks", "Frameworks"
        ALIASES = "aliases", "Old addresses"

    name = models.CharField(max_length=20, choices=Name.choices)

    class Meta:
        ordering = ["name", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["name", "number"], name="unique_list_revision")
        ]

    def __str__(self):
        return f"{self.name} r{self.number}"


class FamilyRevision(History):
    """A family's whole family.yaml after one edit (of the family, or of one of its
    categories or frameworks). Like Revision, recording one publishes a new content version."""

    family = models.ForeignKey(Family, on_delete=models.CASCADE, related_name="revisions")

    class Meta:
        ordering = ["family", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["family", "number"], name="unique_family_revision")
        ]

    def __str__(self):
        return f"{self.family.slug} r{self.number}"


class UnmatchedPaste(models.Model):
    """A paste the engine did not recognise, grouped with its repeats by masked fingerprint:
    the queue from which staff write the next entries. Nothing in it is unmasked
    (kb/triage.py)."""

    fingerprint = models.CharField(max_length=64, unique=True)
    masked_text = models.TextField(
        help_text="The root failure, masked: secrets, private names, paths and numbers."
    )
    normalised_text = models.TextField(
        help_text="The first paste seen, normalised and masked (its first 20,000 characters)."
    )
    count = models.PositiveIntegerField(default=1)
    first_seen = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(auto_now=True)
    draft = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="unmatched_pastes"
    )

    class Meta:
        ordering = ["-last_seen"]

    def __str__(self):
        return self.masked_text.splitlines()[0][:80] if self.masked_text else self.fingerprint


class SharedPasteQuerySet(models.QuerySet):
    def _cutoff(self):
        return timezone.now() - timedelta(days=settings.SHARED_PASTE_DAYS)

    def live(self):
        return self.filter(created__gte=self._cutoff())

    def expired(self):
        return self.filter(created__lt=self._cutoff())


class SharedPaste(models.Model):
    """A posted paste at its own address, /d/<key>, for anyone given the link: masked
    (kb/sharing.py), diagnosed anew whenever it is shown, gone SHARED_PASTE_DAYS after it was
    posted."""

    key = models.CharField(max_length=24, primary_key=True)
    masked_text = models.TextField(help_text="The paste, its secrets and private names masked.")
    frame_line = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="The paste's line (from 0) of the user's own frame in the root traceback: "
        "the masked paths no longer tell a library's frames from theirs.",
    )
    facts = models.JSONField(
        default=dict,
        blank=True,
        help_text="What the paste proved when it was posted, {key: [value, masked evidence, "
        "line from 0]}: a fact read from a path that masking shortens still counts.",
    )
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    objects = SharedPasteQuerySet.as_manager()

    class Meta:
        ordering = ["-created"]

    def __str__(self):
        return self.key

    def get_absolute_url(self):
        return reverse("kb:shared", args=[self.key])

    @property
    def expires(self):
        return self.created + timedelta(days=settings.SHARED_PASTE_DAYS)
