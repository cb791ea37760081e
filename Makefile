# Two commands for people: `make serve` and `make test`. Both install what
# they need first (idempotently), on a fresh clone of a fresh machine.

PYTHON ?= python3
HOST ?= 127.0.0.1
PORT ?= 8000
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: serve test unit e2e bench bench-quick site runtime test-deps browser lint clean

## serve: install the pinned runtime and serve the app at http://127.0.0.1:8000/
serve: runtime
	@echo "Serving the app at http://$(HOST):$(PORT)/ (Ctrl+C stops)"
	$(PYTHON) -m http.server $(PORT) --bind $(HOST)

## test: install what the tests need, then run the checks (make lint), unit
## and end-to-end tests
test: runtime test-deps browser lint
	$(PY) -m pytest tests e2e

## unit: the unit tests without the browser and without those marked slow
## (make test runs those too)
unit: test-deps
	$(PY) -m pytest tests -m "not slow"

## e2e: the end-to-end tests alone
e2e: runtime test-deps browser
	$(PY) -m pytest e2e

## bench: start-up against bare Pyodide, bytes, responsiveness, memory, the
## analysis board's engine and page, engine speed (CPython vs the page's Pyodide
## worker) and strength, in headless
## Chromium: the report written to docs/benchmarks.md (about half an hour); see
## tools/bench/
bench: runtime test-deps browser
	$(PY) -m tools.bench --write docs/benchmarks.md

## bench-quick: the same figures from fewer samples and games (under two
## minutes), the report on stdout (docs/benchmarks.md is left as it is)
bench-quick: runtime test-deps browser
	$(PY) -m tools.bench --quick

## site: the static site in _site/ (git-ignored): exactly what any static host
## serves, at its root or under any sub-path; .github/workflows/pages.yml
## deploys the same folder to GitHub Pages
site: runtime
	$(PYTHON) tools/build_site.py _site

## lint: ruff and mypy on py/ and tools/ (settings in pyproject.toml), and
## .github/workflows/ against GitHub's workflow schema
lint: test-deps
	$(PY) -m ruff check py tools
	$(PY) -m mypy
	$(PY) -m check_jsonschema --builtin-schema vendor.github-workflows .github/workflows/*.yml

# The pinned Pyodide and PyScript packages, copied into vendor/ (git-ignored),
# then the web app manifests and the service worker's precache list.
# tools/vendor.py is idempotent and quick, so it runs every time.
runtime: node_modules/.package-lock.json
	@$(PYTHON) tools/vendor.py

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

# A virtual environment from the pinned test requirements (OpenSpiel, the
# arena's opponent, included: the arena's tests and `make bench` use it).
test-deps: $(VENV)/.installed

$(VENV)/.installed: requirements-test.txt requirements-bench.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-test.txt
	@touch $@

# A Chromium for the end-to-end tests: Debian's when we are root and it is
# missing (Playwright cannot download its own browsers everywhere), else
# Playwright's own.
browser: test-deps
	@if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then \
		true; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	else \
		$(PY) -m playwright install chromium; \
	fi

clean:
	rm -rf vendor node_modules $(VENV) test-results .pytest_cache .hypothesis .mypy_cache .ruff_cache _site
