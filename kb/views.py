import difflib

from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_safe

from kb import coverage, families, presentation
from kb import search as search_logic
from kb.caching import cached_for_visitors
from kb.diagnosis.result import MATCH, NO_MATCH
from kb.models import Category, Entry
from kb.paste import PasteError, accept_paste
from kb.tree import category_tree, find_node
from kb.triage import diagnose_and_record


def _entries(request):
    """Entries this visitor may see: drafts are for staff only."""
    return Entry.objects.visible_to(request.user)


def _resolve(entries, kind, value):
    """(entry, moved) as EntryQuerySet.resolve finds them, or a 404."""
    found, moved = entries.resolve(kind, value)
    if found is None:
        raise Http404(f"No entry {value}")
    return found, moved


@require_safe
def home(request):
    return render(request, "kb/home.html", coverage.known(_entries(request)))


@require_http_methods(["GET", "HEAD", "POST"])
def diagnose(request):
    """The paste box posts here; links printed next to errors use GET /diagnose?q=..."""
    source = request.POST if request.method == "POST" else request.GET
    if request.method != "POST" and "q" not in source:
        return redirect("kb:home")
    try:
        text = accept_paste(source.get("q", ""))
    except PasteError as error:
        return _paste_refused(request, error)
    diagnosis = diagnose_and_record(text, request)
    return render(request, "kb/diagnose.html", _results_context(request, diagnosis))


@require_safe
def go(request):
    """Straight to the entry when the failure is recognised; the results page otherwise."""
    try:
        text = accept_paste(request.GET.get("q", ""))
    except PasteError as error:
        return _paste_refused(request, error)
    diagnosis = diagnose_and_record(text, request)
    if diagnosis.verdict == MATCH:
        return redirect("kb:entry", diagnosis.best.slug)
    return render(request, "kb/diagnose.html", _results_context(request, diagnosis))


def _paste_refused(request, error):
    context = {**coverage.known(_entries(request)), "error": error.message}
    return render(request, "kb/home.html", context, status=error.status)


def _results_context(request, diagnosis):
    best = diagnosis.best
    entries = _entries(request)
    entry = entries.filter(slug=best.slug).first() if best else None
    families = coverage.covered_families(entries)
    no_match = diagnosis.verdict == NO_MATCH
    return {
        "diagnosis": diagnosis,
        "best": best,
        "best_url": reverse("kb:entry", args=[best.slug]) if best else None,
        "wizard_url": presentation.wizard_url(diagnosis) if entry else None,
        "reasons": presentation.reason_rows(diagnosis, best) if best else [],
        "others": coverage.nearest(diagnosis.candidates[:5])
        if no_match
        else diagnosis.candidates[1:6],
        "families": families,
        "pointed_family": coverage.pointed_family(diagnosis, families, entries)
        if no_match
        else None,
        "lines": presentation.paste_lines(diagnosis),
        "facts": presentation.fact_rows(diagnosis),
    }


@require_safe
def search(request):
    query = request.GET.get("q", "")
    hits = search_logic.search(query, _entries(request)) if query.strip() else []
    context = {"query": query, "hits": hits, "searched": bool(query.strip())}
    template = "kb/search.html#results" if request.htmx else "kb/search.html"
    return render(request, template, context)


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
    found, moved = _resolve(_entries(request).with_parts(), "slug", slug)
    if moved:
        return redirect(found, permanent=True)
    # Read once for the page: each snippet is rendered with them.
    variables = families.current().variables
    context = {"entry": found, "latest": found.revisions.first(), "variables": variables}
    return render(request, "kb/entry.html", context)


@require_safe
def entry_by_code(request, code):
    found, _ = _resolve(_entries(request), "code", code)
    return redirect(found)


@require_safe
@cached_for_visitors
def history(request, slug):
    found, moved = _resolve(_entries(request), "slug", slug)
    if moved:
        return redirect("kb:history", found.slug, permanent=True)
    revisions = found.revisions.select_related("author")
    return render(request, "kb/history.html", {"entry": found, "revisions": revisions})


@require_safe
@cached_for_visitors
def revision(request, slug, number):
    found, moved = _resolve(_entries(request), "slug", slug)
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
