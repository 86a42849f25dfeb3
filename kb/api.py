"""The JSON API: POST /api/diagnose, described by the OpenAPI document at /api/openapi.json.

No session or cookie authenticates it, so it is exempt from CSRF like any token-less API."""

import json

from django.http import JsonResponse
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST, require_safe

from kb import presentation
from kb.openapi import openapi_document
from kb.paste import PasteError, accept_paste
from kb.triage import diagnose_and_record


def _error(status, message):
    return JsonResponse({"error": message}, status=status)


def read_json_text(request):
    if request.content_type != "application/json":
        raise PasteError(415, 'Send JSON: Content-Type: application/json, {"text": "..."}.')
    try:
        body = json.loads(request.body)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise PasteError(400, f"The body is not valid JSON in UTF-8: {error}") from error
    except RecursionError as error:
        raise PasteError(400, 'The JSON is nested too deeply: send {"text": "..."}.') from error
    except ValueError as error:  # e.g. an integer of more digits than Python converts
        raise PasteError(400, f"The JSON holds a value that cannot be read: {error}") from error
    if not isinstance(body, dict) or not isinstance(body.get("text"), str):
        raise PasteError(400, 'Expected an object with a string field "text".')
    return accept_paste(body["text"])


@csrf_exempt
@require_POST
def diagnose(request):
    try:
        text = read_json_text(request)
    except PasteError as error:
        return _error(error.status, error.message)
    diagnosis = diagnose_and_record(text, request)

    def url_for(slug):
        return request.build_absolute_uri(reverse("kb:entry", args=[slug]))

    return JsonResponse(presentation.as_json(diagnosis, url_for))


@require_safe
def openapi(request):
    return JsonResponse(openapi_document(request.build_absolute_uri("/").rstrip("/")))
