import difflib
from urllib.parse import urlencode

from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from kb import coverage, families, presentation, sharing
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
    """The paste box posts here, and the paste goes to its own address (/d/<key>); links
    printed next to errors use GET /diagnose?q=..., which is its own address."""
    source = request.POST if request.method == "POST" else request.GET
    if request.method != "POST" and "q" not in source:
        return redirect("kb:home")
    try:
        text = accept_paste(source.get("q", ""))
    except PasteError as error:
        return _paste_refused(request, error)
    diagnosis = diagnose_and_record(text, request)
    if request.method == "POST":
        response = redirect(sharing.share(text, diagnosis, request))
        response.status_code = 303  # the address of the result, to GET
        return response
    frame = sharing.user_frame(diagnosis)
    return render(request, "kb/diagnose.html", _results_context(request, diagnosis, frame))


@require_safe
def go(request):
    """The entry, with what recognised it, when the failure is recognised; the results page
    otherwise. Either is at this link, which is what to share."""
    try:
        text = accept_paste(request.GET.get("q", ""))
    except PasteError as error:
        return _paste_refused(request, error)
    diagnosis = diagnose_and_record(text, request)
    found = None
    if diagnosis.verdict == MATCH:
        found = _entries(request).with_parts().filter(slug=diagnosis.best.slug).first()
    if found is None:
        frame = sharing.user_frame(diagnosis)
        return render(request, "kb/diagnose.html", _results_context(request, diagnosis, frame))
    context = {
        "entry": found,
        "latest": found.revisions.first(),
        "variables": families.current().variables,
        "recognised_line": text.strip().splitlines()[0][:300],
        "diagnosis_url": f"{reverse('kb:diagnose')}?{urlencode({'q': text})}",
    }
    return render(request, "kb/go.html", context)


@require_safe
def shared(request, key):
    """A posted paste's own address: the diagnosis of its masked text as the content is now."""
    found = _shared_or_404(key)
    diagnosis = sharing.rediagnose(found)
    frame = sharing.frame_at(diagnosis, found.frame_line)
    context = _results_context(request, diagnosis, frame)
    context.update(
        shared=found,
        share_url=request.build_absolute_uri(found.get_absolute_url()),
        made_by_you=sharing.made_by(request, key),
    )
    return render(request, "kb/diagnose.html", context)


@require_safe
def shared_edit(request, key):
    """The paste box holding the shared paste, to change it and diagnose it again."""
    found = _shared_or_404(key)
    context = {**coverage.known(_entries(request)), "paste": found.masked_text}
    return render(request, "kb/home.html", context)


@require_POST
def shared_delete(request, key):
    found = _shared_or_404(key)
    if not sharing.made_by(request, key):
        return render(request, "kb/shared_deleted.html", {"refused": True}, status=403)
    found.delete()
    sharing.forget(request, key)
    return render(request, "kb/shared_deleted.html", {"refused": False})


def _shared_or_404(key):
    found = sharing.live(key) if len(key) <= sharing.MAX_KEY_CHARS else None
    if found is None:
        raise Http404("No paste is shared at this address: it was deleted or it expired.")
    return found


def _paste_refused(request, error):
    context = {**coverage.known(_entries(request)), "error": error.message}
    return render(request, "kb/home.html", context, status=error.status)


def _results_context(request, diagnosis, frame=None):
    best = diagnosis.best
    entries = _entries(request)
    families = coverage.covered_families(entries)
    no_match = diagnosis.verdict == NO_MATCH
    lines = diagnosis.normalised.lines
    return {
        "diagnosis": diagnosis,
        "best": best,
        "evidence": presentation.evidence_rows(diagnosis, best) if best and not no_match else [],
        # The engine's own terms (patterns, weights) are for the people who tune it.
        "reasons": presentation.reason_rows(diagnosis, best)
        if best and request.user.is_staff
        else [],
        "frame": frame,
        # The last part of the path: all that masking leaves of it, and what the user knows.
        "frame_file": frame.path.replace("\\", "/").rsplit("/", 1)[-1] if frame else None,
        "frame_number": lines[frame.index].source + 1 if frame else None,
        "others": coverage.nearest(diagnosis.candidates[:5]) if no_match else [],
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
    entries = _entries(request)
    # A code opens its entry, but not while it is still being typed into the live search.
    typing = request.htmx and request.htmx.trigger == "q"
    found = None if typing else search_logic.entry_for_code(query, entries)
    if found is not None:
        return (
            HttpResponseClientRedirect(found.get_absolute_url())
            if request.htmx
            else redirect(found)
        )
    results = search_logic.search(query, entries) if query.strip() else None
    context = {"query": query, "results": results, "searched": results is not None}
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
    context = {
        "entry": found,
        "latest": found.revisions.first(),
        "variables": variables,
        "noted_lines": [line for line in found.sample_lines.all() if line.note],
    }
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
