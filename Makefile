# Tanteo. The two set-up commands are `make demo` and `make test` (see README.md).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
MANAGE := $(BIN)/python manage.py
# Written only after a successful install, so a failed install is retried next time.
STAMP := $(VENV)/.installed
# The front-end packages (Pyodide for the referee's tablet), from package-lock.json.
NPM_STAMP := node_modules/.installed
PYTEST_ARGS ?= -n auto

.PHONY: demo test venv npm install compilemessages messages format

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

# The virtual environment, rebuilt whenever pyproject.toml changes.
venv: $(STAMP)

# Served as static files (config/settings.py), never from a CDN; rebuilt whenever
# package.json or package-lock.json changes.
$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $(NPM_STAMP)

npm: $(NPM_STAMP)

install: venv npm compilemessages

# The committed .mo catalogs are used when gettext is not installed.
compilemessages: venv
	@if command -v msgfmt >/dev/null 2>&1; then \
		$(MANAGE) compilemessages --ignore=$(VENV); \
	else \
		echo "msgfmt not found: using the committed .mo catalogs"; \
	fi

demo: install
	$(MANAGE) migrate --noinput
	$(MANAGE) load_demo
	$(MANAGE) runserver 127.0.0.1:8000

test: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/pytest $(PYTEST_ARGS)

# Refresh the catalogs after changing translatable strings, then translate and compile.
messages: venv
	$(MANAGE) makemessages -l es -l ca -l en \
		--ignore=$(VENV) --ignore=tests --ignore=bench --ignore=staticfiles --ignore='*.egg-info'

format: venv
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .
