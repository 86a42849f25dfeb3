import difflib

from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_safe

from kb import results
from kb import search as search_logic
from kb.caching import cached_for_visitors
from kb.diagnosis import repository
from kb.diagnosis.result import MATCH, NO_MATCH
from kb.models import Category, Entry, EntryAlias, Sibling
from kb.paste import PasteError, accept_paste
from kb.tree import category_tree, find_node
from kb.triage import record_unmatched
from wizard import links as wizard_links


def _entries(request):
    """Entries this visitor may see: drafts are for staff only."""
    return Entry.objects.visible_to(request.user)


def _resolve(request, kind, value):
    """The visible entry with this slug or code, following old addresses. Returns (entry,
    moved): `moved` is True when `value` is an old address that should redirect."""
    lookup = {"slug": "slug", "code": "code__iexact"}[kind]
    entry = _entries(request).filter(**{lookup: value}).first()
    if entry is not None:
        return entry, False
    alias = EntryAlias.objects.filter(kind=kind, value__iexact=value).first()
    if alias is not None and _entries(request).filter(pk=alias.entry_id).exists():
        return alias.entry, True
    raise Http404(f"No entry {value}")


@require_safe
def home(request):
    return render(request, "kb/home.html", {"entry_count": _entries(request).count()})


@require_http_methods(["GET", "HEAD", "POST"])
def diagnose(request):
    """The paste box posts here; links printed next to errors use GET /diagnose?q=..."""
    source = request.POST if request.method == "POST" else request.GET
    if request.method == "GET" and "q" not in source:
        return redirect("kb:home")
    try:
        text = accept_paste(source.get("q", ""))
    except PasteError as error:
        return _paste_refused(request, error)
    diagnosis = repository.diagnose(text)
    if diagnosis.verdict == NO_MATCH:
        record_unmatched(diagnosis, request)
    return render(request, "kb/diagnose.html", _results_context(request, diagnosis))


@require_safe
def go(request):
    """Straight to the entry when the failure is recognised; the results page otherwise."""
    try:
        text = accept_paste(request.GET.get("q", ""))
    except PasteError as error:
        return _paste_refused(request, error)
    diagnosis = repository.diagnose(text)
    if diagnosis.verdict == MATCH:
        return redirect("kb:entry", diagnosis.best.slug)
    if diagnosis.verdict == NO_MATCH:
        record_unmatched(diagnosis, request)
    return render(request, "kb/diagnose.html", _results_context(request, diagnosis))


def _paste_refused(request, error):
    context = {"error": error.message, "entry_count": _entries(request).count()}
    return render(request, "kb/home.html", context, status=error.status)


def _results_context(request, diagnosis):
    best = diagnosis.best
    entry = _entries(request).filter(slug=best.slug).first() if best else None
    return {
        "diagnosis": diagnosis,
        "best": best,
        "best_url": reverse("kb:entry", args=[best.slug]) if best else None,
        "wizard_url": wizard_links.from_paste(entry, diagnosis.facts) if entry else None,
        "reasons": results.reason_rows(diagnosis, best) if best else [],
        "others": diagnosis.candidates[1:6],
        "lines": results.paste_lines(diagnosis),
        "facts": results.fact_rows(diagnosis),
    }


@require_http_methods(["GET", "HEAD", "POST"])
def search(request):
    query = (request.POST if request.method == "POST" else request.GET).get("q", "")
    entries = _entries(request).prefetch_related("symptoms", "sample_lines", "signatures")
    hits = search_logic.search(query, entries) if query.strip() else []
    context = {"query": query, "hits": hits, "searched": bool(query.strip())}
    status = 400 if request.method == "POST" and not query.strip() else 200
    template = "kb/search.html#results" if request.htmx else "kb/search.html"
    return render(request, template, context, status=status)


@require_safe
@cached_for_visitors
def browse(request):
    tree = category_tree(Category.objects.all(), _entries(request))
    return render(request, "kb/browse.html", {"tree": tree})


@require_safe
@cached_for_visitors
def category(request, slug):
    category = get_object_or_404(Category, slug=slug)
    node = find_node(category_tree(Category.objects.all(), _entries(request)), category)
    return render(request, "kb/category.html", {"category": category, "node": node})


@require_safe
@cached_for_visitors
def entry(request, slug):
    found, moved = _resolve(request, "slug", slug)
    if moved:
        return redirect(found, permanent=True)
    visible_siblings = Sibling.objects.filter(other__in=_entries(request)).select_related("other")
    found = (
        _entries(request)
        .select_related("category")
        .prefetch_related(
            "frameworks",
            "base_loop_frameworks",
            "symptoms",
            "triggers__resolved_by",
            "checks__confirms",
            "checks__rules_out",
            "fixes__resolves",
            "fixes__snippets__framework",
            "signatures",
            "sample_lines",
            "fingerprint",
            "config_flags__framework",
            Prefetch("siblings", queryset=visible_siblings),
        )
        .get(pk=found.pk)
    )
    context = {"entry": found, "latest": found.revisions.first()}
    return render(request, "kb/entry.html", context)


@require_safe
def entry_by_code(request, code):
    found, _ = _resolve(request, "code", code)
    return redirect(found)


@require_safe
@cached_for_visitors
def history(request, slug):
    found, moved = _resolve(request, "slug", slug)
    if moved:
        return redirect("kb:history", found.slug, permanent=True)
    revisions = found.revisions.select_related("author")
    return render(request, "kb/history.html", {"entry": found, "revisions": revisions})


@require_safe
@cached_for_visitors
def revision(request, slug, number):
    found, moved = _resolve(request, "slug", slug)
    if moved:
        return redirect("kb:revision", found.slug, number, permanent=True)
    shown = get_object_or_404(found.revisions, number=number)
    previous = found.revisions.filter(number__lt=number).first()
    diff = "".join(
        difflib.unified_diff(
            previous.document.splitlines(keepends=True) if previous else [],
            shown.document.splitlines(keepends=True),
            fromfile=f"r{previous.number}" if previous else "(none)",
            tofile=f"r{shown.number}",
        )
    )
    context = {"entry": found, "revision": shown, "previous": previous, "diff": diff}
    return render(request, "kb/revision.html", context)
