# CardViewer — `make demo` runs the viewer on the demo server, `make test` runs every check.
# Both create .venv and install the locked versions first; only python3 >= 3.11 is needed.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
SCREENSHOT ?= demo-screenshot.png

.PHONY: help setup demo test bench translations lint format typecheck pytest lock clean package package-test

help:
	@echo "make demo   set up, then run the viewer on the built-in demo server"
	@echo "make test   set up, then run ruff, mypy and the test suite (headless)"
	@echo "make bench  set up, then measure speed and memory against the demo server"
	@echo "make translations  extract new texts into resources/*.ts and compile the .qm files"
	@echo "make lock   re-resolve the newest allowed versions into constraints.txt"
	@echo "make clean  remove the virtual environment and caches"
	@echo "make package       build the double-click app for this platform into dist/"
	@echo "make package-test  build it in a temporary folder and smoke-test the frozen app"

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

bench: setup
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m bench

translations: setup
	$(BIN)/python -m cardviewer.i18n update

lock:
	rm -rf .lock-venv
	$(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet --upgrade pip
	.lock-venv/bin/python -m pip install --quiet '.[dev]'
	{ echo "# Exact versions for reproducible installs; 'make lock' rewrites this file."; \
	  .lock-venv/bin/python -m pip freeze --exclude cardviewer; } > constraints.txt
	rm -rf .lock-venv build

clean:
	rm -rf $(VENV) .venv-package .lock-venv build dist *.egg-info .mypy_cache .ruff_cache .pytest_cache

# The double-click app (packaging/README.md). The packaging tools live in their own
# environment, on top of the app's locked versions, so .venv and `make test` never see them.
PKG_VENV  := .venv-package
PKG_STAMP := $(PKG_VENV)/.installed

$(PKG_STAMP): pyproject.toml constraints.txt packaging/requirements.txt
	$(PYTHON) -m venv $(PKG_VENV)
	$(PKG_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(PKG_VENV)/bin/python -m pip install --quiet --constraint constraints.txt \
		--editable '.[demo]' --requirement packaging/requirements.txt
	@touch $@

package: $(PKG_STAMP)
	$(PKG_VENV)/bin/python packaging/build.py

package-test: $(PKG_STAMP)
	$(PKG_VENV)/bin/python packaging/smoke_test.py
