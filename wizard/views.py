from django.contrib import messages
from django.http import HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from kb.caching import cached_for_visitors
from kb.models import Entry, EntryAlias, Framework
from wizard.flow import next_step, step_as_json
from wizard.models import Feedback
from wizard.scope import build_scope
from wizard.state import parse_state

FIXED = {"yes": True, "no": False}


def _visible(request):
    return Entry.objects.visible_to(request.user)


def _start(request):
    """(entry, note) for the `entry` parameter, following renamed entries; (None, None) when
    the link names no entry the visitor may see."""
    slug = request.GET.get("entry", "")
    entry = _visible(request).filter(slug=slug).first()
    if entry is not None:
        return entry, None
    alias = EntryAlias.objects.filter(kind="slug", value=slug).first()
    if alias and _visible(request).filter(pk=alias.entry_id).exists():
        return alias.entry, f"The entry “{slug}” is now “{alias.entry.slug}”; the link still works."
    return None, None


def _step(request):
    entry, note = _start(request)
    if entry is None:
        return None
    frameworks = {f.key: f for f in Framework.objects.all()}
    scope = build_scope(entry, _visible(request))
    state = parse_state(request.GET, scope.questions.keys(), frameworks.keys())
    state.entry = entry.slug
    if note:
        state.notes.insert(0, note)
    return next_step(scope, state, frameworks)


@require_GET
@cached_for_visitors
def step(request):
    if not request.GET.get("entry"):
        return render(request, "wizard/start.html", {"entries": _symptom_choices(request)})
    current = _step(request)
    if current is None:
        context = {"entries": _symptom_choices(request), "missing": request.GET["entry"]}
        return render(request, "wizard/start.html", context, status=404)
    template = "wizard/step.html#card" if request.htmx else "wizard/step.html"
    return render(request, template, {"step": current})


@require_GET
def step_json(request):
    current = _step(request) if request.GET.get("entry") else None
    if current is None:
        return JsonResponse({"error": "Start from an entry: entry=<slug>."}, status=404)
    return JsonResponse(step_as_json(current))


@require_POST
def feedback(request):
    entry = get_object_or_404(_visible(request), slug=request.POST.get("entry", ""))
    fixed = FIXED.get(request.POST.get("fixed", ""))
    if fixed is None:
        return HttpResponseBadRequest("Answer yes or no.")
    Feedback.objects.create(
        entry=entry,
        revision=entry.revisions.first(),
        fixed=fixed,
        causes=request.POST.get("causes", "")[:200],
        fix=request.POST.get("fix", "")[:60],
        framework=request.POST.get("framework", "")[:40],
    )
    messages.success(request, "Thank you: your answer helps keep this entry right.")
    query = request.POST.get("state", "").lstrip("?")
    return redirect(f"{reverse('wizard:step')}?{query}#feedback")


def _symptom_choices(request):
    """What the visitor may recognise: every visible entry with what its users see."""
    return _visible(request).select_related("category").prefetch_related("symptoms")
