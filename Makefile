# One-command workflows: `make run` serves the site locally, `make test` runs the tests.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/requirements.stamp
TEST_SETTINGS := shuangkou_site.settings.test
PYTEST_ARGS ?=
# Test processes (pytest-xdist): one per core by default; PYTEST_WORKERS=0 runs in one.
PYTEST_WORKERS ?= auto
# Hypothesis profile (conftest.py): `ci` runs every property test at its full count.
HYPOTHESIS_PROFILE ?= ci
PYTEST := PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 DJANGO_SETTINGS_MODULE=$(TEST_SETTINGS) \
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist load

.PHONY: venv services chromium node messages run test test-fast js-test lint imports

venv: $(STAMP)

# Reinstall only when a requirements file changed since the last install.
# requirements.lock pins every transitive dependency too (pip constraints).
$(STAMP): requirements.txt requirements-dev.txt requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 $(BIN)/python -m pip install --quiet \
		-r requirements-dev.txt -c requirements.lock
	touch $@

services:
	scripts/ensure_services.sh

# Debian's chromium for the browser test (Playwright drives it; it downloads no browser).
chromium:
	scripts/ensure_chromium.sh

# Node runs the table page's fold tests (node --test): Debian's nodejs when it is missing.
node:
	command -v node >/dev/null || (apt-get update && apt-get install -y nodejs)

# The table page's protocol fold (static/js/table/protocol.js) against logs the Python
# engine records (games/engine/sample_games.py). Seeds 1-6 give every kind of event,
# a 明牌 swap and 接风 among them (the test checks that they do).
FOLD_LOGS := test-artifacts/fold-logs.json
js-test: venv node
	mkdir -p $(dir $(FOLD_LOGS))
	$(BIN)/python -m games.engine.sample_games --out $(FOLD_LOGS) --seeds 1 2 3 4 5 6
	FOLD_LOGS=$(FOLD_LOGS) node --test static/js/tests/*.test.mjs

# Compile the translation catalogs (locale/*/LC_MESSAGES/django.po; the .mo files are
# not committed). compilemessages runs msgfmt: install gettext when it is missing. It
# reads no database: the test settings, as the development ones would start `make run`'s.
messages: venv
	command -v msgfmt >/dev/null || apt-get install -y gettext
	DJANGO_SETTINGS_MODULE=$(TEST_SETTINGS) $(BIN)/python manage.py compilemessages \
		--ignore=.venv --ignore=staticfiles

# The site on http://127.0.0.1:$(PORT), as a newcomer first sees it (scripts/serve_dev.py,
# which the newcomer's browser test runs too): migrations, presets, demo logins, uvicorn.
PORT ?= 8000
run: venv messages
	$(BIN)/python scripts/serve_dev.py --port $(PORT)

# The import contracts (pyproject.toml, [tool.importlinter]): apps depend one way, the
# engine on nothing of Django. Run before the tests, and by lint.
imports: venv
	$(BIN)/lint-imports

# Everything, the tests marked slow included: what CI runs (.ci/run).
test: venv imports services chromium messages js-test
	HYPOTHESIS_PROFILE=$(HYPOTHESIS_PROFILE) $(PYTEST) $(PYTEST_ARGS)

# The inner loop: no test marked slow (browser, servers, long property runs, whole
# games), and the property tests at the `dev` profile's share of their examples.
test-fast: venv imports services messages js-test
	HYPOTHESIS_PROFILE=$(if $(filter command line environment,$(origin HYPOTHESIS_PROFILE)),$(HYPOTHESIS_PROFILE),dev) \
		$(PYTEST) -m "not slow" $(PYTEST_ARGS)

lint: venv imports
	$(BIN)/ruff check .
