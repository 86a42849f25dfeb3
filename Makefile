# Two commands for a newcomer: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# What production looks like, for `manage.py check --deploy` in lint.
DEPLOY_ENV := DEBUG=0 SECRET_KEY=lint-only-$(shell printf '%064d' 0 | tr 0 k) \
	ALLOWED_HOSTS=faultline.example.com SECURE_SSL_REDIRECT=1 SECURE_HSTS_SECONDS=31536000 \
	SECURE_HSTS_INCLUDE_SUBDOMAINS=1 SECURE_HSTS_PRELOAD=1

.PHONY: run dev setup test lint format clean

run: setup
	@echo "Faultline on http://$(HOST):$(PORT)/ (Ctrl-C stops it)"
	SECURE_COOKIES=0 $(BIN)/gunicorn config.wsgi -c config/gunicorn.py --bind $(HOST):$(PORT)

dev: setup
	DEBUG=1 $(BIN)/python manage.py runserver $(HOST):$(PORT)

setup: $(VENV)/.installed .secret_key
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_taxonomy
	$(BIN)/python manage.py collectstatic --noinput -v0

PG_BROWSER_TESTS = tests/browser/test_share.py tests/browser/test_journeys.py tests/browser/test_copy.py

test: lint
	.ci/system-deps
	@# The lab's torchvision (pip's CUDA build, 7.7 MB, no dependencies) into .lab/, never .venv.
	$(BIN)/python -c "from tools.repro.env_support import ensure_lab_torchvision as e; e()"
	FAULTLINE_ALL_EXAMPLES=1 $(BIN)/pytest -q -n auto --maxprocesses 4
	@echo "The suite again on PostgreSQL, with two app servers sharing it and Redis (no lab), then"
	@echo "the browser journeys that store and read (post, share, delete, wizard, admin) on it:"
	FAULTLINE_ALL_EXAMPLES=1 .ci/with-postgres sh -c '$(BIN)/pytest -q -n 2 -m "not slow" -p no:cacheprovider && \
	  $(BIN)/pytest -q -p no:cacheprovider $(PG_BROWSER_TESTS)'

lint: $(VENV)/.installed-dev .secret_key
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/python manage.py check
	$(DEPLOY_ENV) $(BIN)/python manage.py check --deploy --fail-level WARNING
	$(BIN)/python manage.py check_taxonomy

format: $(VENV)/.installed-dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip==25.3

$(VENV)/.installed: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@ $(VENV)/.installed

.secret_key:
	$(PYTHON) -c "import secrets; print(secrets.token_urlsafe(50))" > $@
	chmod 600 $@

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache node_modules artifacts .lab
