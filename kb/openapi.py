"""The OpenAPI 3.1 description of the JSON API."""

REASON = {
    "type": "object",
    "required": ["kind", "summary", "weight", "generic", "lines"],
    "properties": {
        "kind": {
            "type": "string",
            "enum": ["signature", "exception", "assert_site", "fingerprint", "fulltext"],
        },
        "summary": {"type": "string", "description": "What matched where, for people."},
        "weight": {"type": "number", "description": "What it added to the score."},
        "generic": {
            "type": "boolean",
            "description": "It matched only lines that never identify a failure alone.",
        },
        "lines": {
            "type": "array",
            "items": {"type": "integer", "minimum": 1},
            "description": "1-based line numbers in the submitted text.",
        },
    },
}

MATCH = {
    "type": "object",
    "required": ["slug", "code", "title", "url", "confidence", "reasons"],
    "properties": {
        "slug": {"type": "string"},
        "code": {"type": "string", "examples": ["ABC-001"]},
        "title": {"type": "string"},
        "url": {"type": "string", "format": "uri"},
        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        "reasons": {"type": "array", "items": REASON},
    },
}

DIAGNOSIS = {
    "type": "object",
    "required": ["verdict", "matches", "facts"],
    "properties": {
        "verdict": {"type": "string", "enum": ["match", "possible", "no_match"]},
        "matches": {"type": "array", "items": MATCH, "description": "Best first, at most 5."},
        "facts": {
            "type": "object",
            "additionalProperties": {"type": "string"},
            "description": "What the text proves about the setup, e.g. framework, launcher.",
        },
        "root": {
            "type": ["object", "null"],
            "properties": {"type": {"type": "string"}, "message": {"type": "string"}},
        },
        "ranks": {"type": "array", "items": {"type": "integer"}},
        "first_failing_rank": {"type": ["integer", "null"]},
    },
}

ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {"error": {"type": "string"}},
}


def _error_response(description):
    return {"description": description, "content": {"application/json": {"schema": ERROR}}}


def openapi_document(server_url):
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Faultline",
            "version": "1",
            "description": "Recognise an ML training failure from a traceback or log.",
        },
        "servers": [{"url": server_url}],
        "paths": {
            "/api/diagnose": {
                "post": {
                    "operationId": "diagnose",
                    "summary": "Diagnose a pasted traceback, log or error message",
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "required": ["text"],
                                    "properties": {
                                        "text": {
                                            "type": "string",
                                            "minLength": 1,
                                            "maxLength": 1_000_000,
                                            "pattern": "\\S",
                                            "description": (
                                                "The traceback, log or message: at most 1 MB, "
                                                "not blank, text rather than binary data."
                                            ),
                                        }
                                    },
                                }
                            }
                        },
                    },
                    "responses": {
                        "200": {
                            "description": "The diagnosis",
                            "content": {"application/json": {"schema": DIAGNOSIS}},
                        },
                        "400": _error_response("Empty, not text, or not the expected JSON"),
                        "413": _error_response("Larger than 1 MB"),
                        "415": _error_response("Not JSON"),
                    },
                }
            }
        },
    }
