"""The WSGI entry point gunicorn serves (config/gunicorn.py).

A client that sends its headers and then stops sending the body it announced would hold a
server thread for as long as it keeps the connection open: each read of the socket may wait
at most READ_TIMEOUT seconds, after which the request is answered with a 400
(kb.middleware.refuse_oversized) and the thread moves on."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

READ_TIMEOUT = 10

django_application = get_wsgi_application()


def application(environ, start_response):
    connection = environ.get("gunicorn.socket")
    if connection is not None:
        connection.settimeout(READ_TIMEOUT)
    return django_application(environ, start_response)
