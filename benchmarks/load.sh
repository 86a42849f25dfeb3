#!/usr/bin/env bash
# Load test, run by hand: bash benchmarks/load.sh [seconds per run, default 15]
# Serves the site with gunicorn on a loopback port (its own SQLite database, DEBUG off) and
# drives it with wrk at 16 and 64 connections: a mix of entry pages, wizard steps and
# diagnoses, an entry page alone, and a static file served by the same gunicorn (the floor of
# the stack). Prints requests/s, p99 latency and errors, and the entry-page/static and
# wizard-steps/static ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-15}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }

work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export DEBUG=0 SECURE_COOKIES=0 SECRET_KEY=load-test-$RANDOM$RANDOM$RANDOM$RANDOM$RANDOM
export DATABASE_URL="sqlite:///$work/db.sqlite3"
workers=${WORKERS:-$(( $(nproc) * 2 + 1 ))}
.venv/bin/python manage.py migrate -v0
.venv/bin/python manage.py load_taxonomy >/dev/null
.venv/bin/python manage.py collectstatic --noinput -v0
WEB_WORKERS=$workers .venv/bin/gunicorn config.wsgi -c config/gunicorn.py --bind "127.0.0.1:$port" \
  --log-level warning --access-logfile /dev/null >"$work/gunicorn.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/" >/dev/null && break; sleep 0.2; done

base="http://127.0.0.1:$port"
static=$(curl -fs "$base/kb/" | grep -o '/static/css/site[^"]*\.css' | head -n 1)
for path in /kb/ddp-expect-autograd-hooks-assert/ "$static"; do curl -fs "$base$path" >/dev/null; done

run() {  # name, connections, wrk arguments...
  local name=$1 connections=$2; shift 2
  local out
  out=$(wrk -t2 -c"$connections" -d"${seconds}s" --timeout 10s --latency "$@")
  local rps p99 errors
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  errors=$(awk '/Non-2xx or 3xx/ {n += $NF} /Socket errors/ {gsub(",", ""); n += $4 + $6 + $8 + $10} END {print n + 0}' <<<"$out")
  printf '%-14s %4s conns %10s req/s  p99 %8s  errors %s\n' "$name" "$connections" "$rps" "$p99" "$errors"
  eval "rps_${name//-/_}_$connections=$rps"
}

# Wizard steps: every step of a simulated user's walk from each entry's page (some 700 distinct
# query strings), cycled: each is computed once, then served from the cache per content version.
.venv/bin/python - "$work/wizard.lua" <<'PY'
import os, sys
from urllib.parse import urlencode
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from django.conf import settings
from tests.simulated import answers_of, wizard_of
wizard, paths = wizard_of(settings.TAXONOMY_DIR), []
for slug in wizard.entries:
    scope = wizard.scope(slug)
    hypothesis = next(h for h in scope.prior if h.entry == slug)
    _, _, pairs = wizard.walk(answers_of(scope, hypothesis), slug)
    paths += ["/wizard/?" + urlencode(pairs[:n]) for n in range(1, len(pairs) + 1)]
lua = ",\n".join(f"  {path!r}" for path in paths)
with open(sys.argv[1], "w") as out:
    out.write("local paths = {\n" + lua + "\n}\nlocal i = 0\nrequest = function()\n"
              "  i = i % #paths + 1\n  return wrk.format(\"GET\", paths[i])\nend\n")
PY

echo "gunicorn (config/gunicorn.py), $workers workers, $(nproc) cores, ${seconds}s per run"
for connections in 16 64; do
  run mix "$connections" -s benchmarks/mix.lua "$base"
  run entry-page "$connections" "$base/kb/ddp-expect-autograd-hooks-assert/"
  run wizard-steps "$connections" -s "$work/wizard.lua" "$base"
  run static-file "$connections" "$base$static"
done
for connections in 16 64; do
  entry=rps_entry_page_$connections static=rps_static_file_$connections
  wizard=rps_wizard_steps_$connections
  python3 -c "print(f'entry page / static file at $connections connections: {${!entry} / ${!static}:.2f}')"
  python3 -c "print(f'wizard steps / static file at $connections connections: {${!wizard} / ${!static}:.2f} (target 0.4)')"
done
