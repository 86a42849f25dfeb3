import secrets

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from kb import families, ratelimit
from kb.caching import cached_for_visitors
from kb.models import Entry
from wizard import repository
from wizard.content import around
from wizard.flow import next_step, step_as_json
from wizard.models import Feedback
from wizard.scope import build_scope
from wizard.state import parse_state

FIXED = {"yes": True, "no": False}
VISITOR_COOKIE = "faultline_visitor"
VISITOR_MAX_AGE = 2 * 365 * 24 * 3600


def _visible(request):
    return Entry.objects.visible_to(request.user)


def _start(request):
    """(entry, note) for the `entry` parameter, following renamed entries; (None, None) when
    the link names no entry the visitor may see."""
    slug = request.GET.get("entry", "")
    entry, moved = _visible(request).resolve("slug", slug)
    if moved:
        return entry, f"The entry “{slug}” is now “{entry.slug}”; the link still works."
    return entry, None


def _step(request):
    entry, note = _start(request)
    if entry is None:
        return None
    known = repository.current(staff=request.user.is_staff)
    variables = families.current().variables
    scope = build_scope(around(known.entries[entry.slug], known.entries))
    state = parse_state(request.GET, scope.questions.keys(), known.frameworks.keys(), variables)
    state.entry = entry.slug
    if note:
        state.notes.insert(0, note)
    return next_step(scope, state, known.frameworks, variables)


def _visitor_query(request, version):
    """What a visitor's step is cached under and rendered from: the query as the wizard reads
    it (parameters no question knows, and values it cannot use, dropped), so made-up
    parameters cannot make a cache miss each."""
    known = repository.current()
    variables = families.current().variables
    return parse_state(request.GET, known.question_keys, known.frameworks, variables).query()


@require_safe
@cached_for_visitors(query=_visitor_query)
def step(request):
    if not request.GET.get("entry"):
        return render(request, "wizard/start.html", {"entries": _symptom_choices(request)})
    current = _step(request)
    if current is None:
        context = {"entries": _symptom_choices(request), "missing": request.GET["entry"]}
        return render(request, "wizard/start.html", context, status=404)
    template = "wizard/step.html#card" if request.htmx else "wizard/step.html"
    return render(request, template, {"step": current})


@require_safe
def step_json(request):
    current = _step(request) if request.GET.get("entry") else None
    if current is None:
        return JsonResponse({"error": "Start from an entry: entry=<slug>."}, status=404)
    return JsonResponse(step_as_json(current))


@require_POST
def feedback(request):
    # Counted first: an address sending a fresh cookie with each vote is stopped here, before
    # it costs the database a query.
    ratelimit.count(
        "feedback",
        ratelimit.client_address(request),
        settings.FEEDBACK_PER_ADDRESS_PER_HOUR,
        3600,
        "Too many answers from your address: try again within the hour.",
    )
    entry = get_object_or_404(_visible(request), slug=request.POST.get("entry", ""))
    fixed = FIXED.get(request.POST.get("fixed", ""))
    if fixed is None:
        return HttpResponseBadRequest("Answer yes or no.")
    visitor = _visitor(request)
    Feedback.objects.record(
        entry,
        visitor,
        fixed=fixed,
        causes=request.POST.get("causes", "")[:200],
        fix=request.POST.get("fix", "")[:60],
        framework=request.POST.get("framework", "")[:40],
    )
    messages.success(request, "Thank you: your answer helps keep this entry right.")
    query = request.POST.get("state", "").lstrip("?")
    response = redirect(f"{reverse('wizard:step')}?{query}#feedback")
    _remember(response, visitor)
    return response


def _visitor(request):
    """The id this browser votes under: the one its signed cookie carries, else a new one."""
    visitor = request.get_signed_cookie(VISITOR_COOKIE, default=None)
    return visitor or secrets.token_urlsafe(16)


def _remember(response, visitor):
    # Sent back only to the feedback form's target, so every other page's request stays the
    # same for every visitor and cached pages are not split by it.
    response.set_signed_cookie(
        VISITOR_COOKIE,
        visitor,
        max_age=VISITOR_MAX_AGE,
        path=reverse("wizard:feedback"),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def _symptom_choices(request):
    """What the visitor may recognise: every visible entry with what its users see."""
    return _visible(request).select_related("category").prefetch_related("symptoms")
