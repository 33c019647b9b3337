# One-command workflows: `make run` serves the site locally, `make test` runs the tests.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/requirements.stamp
DEV_SETTINGS := shuangkou_site.settings.dev
TEST_SETTINGS := shuangkou_site.settings.test
PYTEST_ARGS ?=
# Test processes (pytest-xdist): one per core by default; PYTEST_WORKERS=0 runs in one.
PYTEST_WORKERS ?= auto
# Hypothesis profile (conftest.py): `ci` runs every property test at its full count.
HYPOTHESIS_PROFILE ?= ci
PYTEST := PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 DJANGO_SETTINGS_MODULE=$(TEST_SETTINGS) \
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist load

.PHONY: venv services chromium messages run test test-fast lint

venv: $(STAMP)

# Reinstall only when a requirements file changed since the last install.
$(STAMP): requirements.txt requirements-dev.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 $(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $@

services:
	scripts/ensure_services.sh

# Debian's chromium for the browser test (Playwright drives it; it downloads no browser).
chromium:
	scripts/ensure_chromium.sh

# Compile the translation catalogs (locale/*/LC_MESSAGES/django.po; the .mo files are
# not committed). compilemessages runs msgfmt: install gettext when it is missing.
messages: venv
	command -v msgfmt >/dev/null || apt-get install -y gettext
	DJANGO_SETTINGS_MODULE=$(DEV_SETTINGS) $(BIN)/python manage.py compilemessages \
		--ignore=.venv --ignore=staticfiles

run: venv messages
	DJANGO_SETTINGS_MODULE=$(DEV_SETTINGS) $(BIN)/python manage.py migrate --noinput
	DJANGO_SETTINGS_MODULE=$(DEV_SETTINGS) $(BIN)/python manage.py load_presets
	DJANGO_SETTINGS_MODULE=$(DEV_SETTINGS) $(BIN)/python manage.py seed_demo
	@echo "Serving http://127.0.0.1:8000 (logins: admin/admin, demo/demo)"
	DJANGO_SETTINGS_MODULE=$(DEV_SETTINGS) $(BIN)/uvicorn shuangkou_site.asgi:application \
		--host 127.0.0.1 --port 8000 --lifespan off

# Everything, the tests marked slow included: what CI runs (.ci/run).
test: venv services chromium messages
	HYPOTHESIS_PROFILE=$(HYPOTHESIS_PROFILE) $(PYTEST) $(PYTEST_ARGS)

# The inner loop: no test marked slow (browser, servers, long property runs, whole
# games), and the property tests at the `dev` profile's share of their examples.
test-fast: venv services messages
	HYPOTHESIS_PROFILE=$(if $(filter command line environment,$(origin HYPOTHESIS_PROFILE)),$(HYPOTHESIS_PROFILE),dev) \
		$(PYTEST) -m "not slow" $(PYTEST_ARGS)

lint: venv
	$(BIN)/ruff check .
