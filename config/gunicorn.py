"""How the site is served: `make run`, the tests that start a server and the load benchmark
all use this file (`gunicorn config.wsgi -c config/gunicorn.py --bind HOST:PORT`).

Threads, not one process per request: with gunicorn's default sync workers, two clients that
send a request's headers and then trickle its body hold both workers of a small machine, and
everyone else waits. A gthread worker reads each connection in a thread of its own, so slow
clients hold a thread each and the other threads keep answering. Production still sits behind
a buffering proxy (nginx, HAProxy, a cloud load balancer), which takes slow clients off the
app servers altogether (README.md, "PostgreSQL behind several app servers").

Environment: WEB_WORKERS (default 2) and WEB_THREADS (default 4) size the server.
"""

import os

worker_class = "gthread"
workers = int(os.environ.get("WEB_WORKERS", "2"))
threads = int(os.environ.get("WEB_THREADS", "4"))
# A worker whose main loop stops answering for this long is restarted.
timeout = 30
graceful_timeout = 10
keepalive = 5

# Links printed next to errors carry a paste's first line in the query string. gunicorn's own
# ceiling is 8,190 bytes, past which it answers with a bare error page; 0 lifts its limit
# (to 1 MB, the size of a paste) so that the site enforces its own, MAX_URL_BYTES (8 KB), and
# answers longer links with a page that offers their text in the paste box (a 414).
limit_request_line = 0

# gunicorn 27 opens a control socket at ~/.gunicorn/gunicorn.ctl by default, one path for
# every instance on the host (tests and benchmarks start several): nothing here uses it.
control_socket_disable = True

accesslog = "-"
