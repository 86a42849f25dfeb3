import secrets

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponseBadRequest, JsonResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST, require_safe

from kb import families, ratelimit
from kb.api import read_json_text
from kb.caching import cached_for_visitors, per_content_version
from kb.models import Entry, Family
from kb.paste import PasteError
from kb.triage import diagnose_and_record
from wizard import blank, csrf, repository
from wizard.flow import next_step, step_as_json
from wizard.models import Feedback
from wizard.paste import paste_state
from wizard.report import report_unfixed
from wizard.scope import paste_scope
from wizard.state import parse_candidates, parse_state

FIXED = {"yes": True, "no": False}
THANKS = "Thank you: your answer helps keep this entry right."
NOT_FIXED = "Thank you for telling us, and sorry it did not fix it. What to try next:"
TOLD = "Thank you: the maintainers will see this result and your answers in their queue."
VISITOR_COOKIE = "faultline_visitor"
VISITOR_MAX_AGE = 2 * 365 * 24 * 3600


def _visible(request):
    return Entry.objects.visible_to(request.user)


def _start(request, params, known):
    """(slug, note) for the `entry` parameter, following renamed entries; (None, None) when
    the link names no entry the visitor may see. `known`: what the visitor may see."""
    slug = params.get("entry", "")
    if slug in known.entries:
        return slug, None
    entry, moved = _visible(request).resolve("slug", slug)
    if not moved or entry.slug not in known.entries:
        return None, None
    return entry.slug, f"The entry “{slug}” is now “{entry.slug}”; the link still works."


def _scope(params, known, slug):
    """From the paste's candidates when the query carries them, else from the entry."""
    candidates = tuple(parse_candidates(params.get("cand", "")))
    scope = None
    if candidates:
        scope = known.scope(candidates, lambda: paste_scope(candidates, known.entries))
    return scope or known.entry_scopes[slug]


def _step(request, params=None):
    """The step for the query `params` (the request's own by default)."""
    params = request.GET if params is None else params
    known = repository.current(staff=request.user.is_staff)
    slug, note = _start(request, params, known)
    if slug is None:
        return None
    variables = families.current().variables
    scope = _scope(params, known, slug)
    state = parse_state(params, scope.questions.keys(), known.frameworks.keys(), variables)
    state.entry = scope.start.slug
    if note:
        state.notes.insert(0, note)
    return next_step(scope, state, known.frameworks, variables)


def _paste_start(request, candidates, facts):
    """The state a paste starts the wizard in, or None when no candidate is an entry the
    visitor may see."""
    known = repository.current(staff=request.user.is_staff)
    scope = paste_scope(candidates, known.entries)
    if scope is None:
        return None
    parts = families.current()
    return paste_state(
        scope, candidates, facts, parts.facts, parts.variables, known.frameworks.keys()
    )


def _visitor_query(request, version):
    """What a visitor's step is cached under and rendered from: the query as the wizard reads
    it (parameters no question knows, and values it cannot use, dropped), so made-up
    parameters cannot make a cache miss each."""
    if not request.GET.get("entry"):
        return _blank_query(request)
    known = repository.current()
    variables = families.current().variables
    return parse_state(request.GET, known.question_keys, known.frameworks, variables).query()


@require_safe
@csrf.with_visitor_token
@cached_for_visitors(query=_visitor_query)
def step(request):
    if not request.GET.get("entry"):
        return _blank_start(request)
    current = _step(request)
    if current is None:
        return _blank_start(request, missing=request.GET["entry"])
    template = "wizard/step.html#card" if request.htmx else "wizard/step.html"
    return render(request, template, {"step": current, "csrf_token": csrf.placeholder()})


@csrf_exempt
def step_json(request):
    """GET: the step for a query string. POST {"text": paste}: the first step from a paste,
    with `query`, the query string of that step for the GETs that follow."""
    if request.method == "POST":
        return _step_json_from_paste(request)
    if request.method not in ("GET", "HEAD"):
        return JsonResponse({"error": "GET a step, or POST a paste."}, status=405)
    if not request.GET.get("entry"):
        return _blank_json(request)
    current = _step(request)
    if current is None:
        return JsonResponse({"error": "No such entry: start from nothing or a paste."}, status=404)
    return JsonResponse(step_as_json(current))


def _step_json_from_paste(request):
    try:
        text = read_json_text(request)
    except PasteError as error:
        return JsonResponse({"error": error.message}, status=error.status)
    diagnosis = diagnose_and_record(text, request)
    candidates = [(c.slug, c.confidence) for c in diagnosis.candidates]
    state = _paste_start(request, candidates, diagnosis.facts)
    if state is None:
        message = "Faultline does not recognise this paste: no entry to start from."
        return JsonResponse({"error": message, "verdict": diagnosis.verdict}, status=422)
    query = state.query()
    return JsonResponse({**step_as_json(_step(request, QueryDict(query))), "query": query})


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
    answer = {
        "causes": request.POST.get("causes", "")[:200],
        "fix": request.POST.get("fix", "")[:60],
        "framework": request.POST.get("framework", "")[:40],
    }
    query = request.POST.get("state", "").lstrip("?")
    # Back to the result, where the form was: the message (tagged for it) shows there.
    response = redirect(f"{reverse('wizard:step')}?{query}#feedback")
    if request.POST.get("tell") == "maintainers":
        report_unfixed(entry, state=query, **answer)
        messages.success(request, TOLD, extra_tags="feedback told")
        return response
    fixed = FIXED.get(request.POST.get("fixed", ""))
    if fixed is None:
        return HttpResponseBadRequest("Answer yes or no.")
    visitor = _visitor(request)
    Feedback.objects.record(entry, visitor, fixed=fixed, **answer)
    if fixed:
        messages.success(request, THANKS, extra_tags="feedback fixed")
    else:
        messages.info(request, NOT_FIXED, extra_tags="feedback not-fixed")
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


@per_content_version
def _blank_questions(staff):
    parts = Family.objects.order_by("order", "slug").values_list("parts", flat=True)
    return blank.Questions(repository.current(staff=staff).entries.values(), parts)


def _blank_start(request, missing=None):
    """The blank start (wizard/blank.py): what happened, then the area or the failure's own
    words, until a choice opens one entry's checklist. A link it cannot read gets a 400 that
    says why, with the first question."""
    questions = _blank_questions(request.user.is_staff)
    state = questions.parse(request.GET)
    status = 404 if missing else 400 if state.problems else 200
    current = questions.step(blank.State() if state.problems else state)
    template = "wizard/start.html#card" if request.htmx else "wizard/start.html"
    context = {"blank": current, "problems": state.problems, "missing": missing}
    return render(request, template, context, status=status)


def _blank_query(request):
    """The blank start's cache key: its answers in their order, parameters it does not read
    left out. A link with answers it cannot use is passed on whole, for its 400 (never
    cached)."""
    state = _blank_questions(False).parse(request.GET)
    return request.GET.urlencode() if state.problems else state.query()


def _blank_json(request):
    """The blank start as JSON: the question and its choices, each with the query of the next
    blank step, or the entry whose checklist it opens with the query that opens it
    (GET /api/wizard/?entry=<slug>&cand=<slug>:1.000)."""
    questions = _blank_questions(request.user.is_staff)
    state = questions.parse(request.GET)
    if state.problems:
        return JsonResponse({"error": " ".join(state.problems)}, status=400)
    current = questions.step(state)
    body = {"blank": True, "query": state.query(), "candidates": len(current.candidates)}
    question = current.question
    if question is not None:
        choices = [*question.choices, question.other]
        body["question"] = {
            "key": question.key,
            "text": question.text,
            "help": question.help,
            "choices": [
                {"label": c.label, "query": c.query, "entry": c.entry or None} for c in choices
            ],
        }
    return JsonResponse(body)
