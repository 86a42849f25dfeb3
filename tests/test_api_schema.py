"""The JSON API against its own OpenAPI description: requests generated from the schema never
get a 5xx, and every answer matches the documented schema (schemathesis)."""

import pytest
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings

from tests.examples import examples


@pytest.fixture
def connection_kept_open():
    """Like Django's test client: requests made in-process must not close the connection that
    holds the test's transaction (PostgreSQL would lose it)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def test_the_api_never_fails_and_answers_as_documented(taxonomy, connection_kept_open):
    # Imported here, not at collection: every pytest-xdist worker collects this module.
    import schemathesis
    from schemathesis.checks import positive_data_acceptance

    api = schemathesis.openapi.from_wsgi("/api/openapi.json", get_wsgi_application())
    operations = [result.ok() for result in api.get_all_operations()]
    assert [(op.method.upper(), op.path) for op in operations] == [("POST", "/api/diagnose")]

    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=examples(40), deadline=None, suppress_health_check=list(HealthCheck))
        def call(case):
            response = case.call()
            assert response.status_code < 500, response.text[:500]
            # A schema-valid text that is mostly control characters is refused (400, "not
            # text") on purpose: a rule JSON Schema cannot express.
            case.validate_response(response, excluded_checks=[positive_data_acceptance])

        call()
