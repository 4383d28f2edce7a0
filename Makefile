# CardViewer — `make demo` runs the viewer on the demo server, `make test` runs every check.
# Both create .venv and install the locked versions first; only python3 >= 3.11 is needed.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
SCREENSHOT ?= demo-screenshot.png

.PHONY: help setup demo test lint format typecheck pytest lock clean

help:
	@echo "make demo   set up, then run the viewer on the built-in demo server"
	@echo "make test   set up, then run ruff, mypy and the test suite (headless)"
	@echo "make lock   re-resolve the newest allowed versions into constraints.txt"
	@echo "make clean  remove the virtual environment and caches"

$(STAMP): pyproject.toml constraints.txt
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else \
		"CardViewer needs Python 3.11 or newer; set PYTHON=python3.11 or similar.")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --constraint constraints.txt --editable '.[dev]'
	@touch $@

setup: $(STAMP)

demo: setup
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ] || [ "$$(uname)" = Darwin ]; then \
		$(BIN)/python main.py --demo; \
	else \
		echo "No display found: signing in to the demo server headless and saving" \
			"a screenshot of the main window to $(SCREENSHOT)."; \
		QT_QPA_PLATFORM=offscreen $(BIN)/python main.py --demo --screenshot $(SCREENSHOT) \
			&& echo "Saved $(SCREENSHOT)."; \
	fi

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: setup
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

typecheck: setup
	$(BIN)/mypy

pytest: setup
	QT_QPA_PLATFORM=offscreen $(BIN)/pytest

test: lint typecheck pytest

lock:
	rm -rf .lock-venv
	$(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet --upgrade pip
	.lock-venv/bin/python -m pip install --quiet '.[dev]'
	{ echo "# Exact versions for reproducible installs; 'make lock' rewrites this file."; \
	  .lock-venv/bin/python -m pip freeze --exclude cardviewer; } > constraints.txt
	rm -rf .lock-venv build

clean:
	rm -rf $(VENV) .lock-venv build *.egg-info .mypy_cache .ruff_cache .pytest_cache
