# CardViewer — `make demo` runs the viewer on the demo server, `make test` runs every check.
# Both create .venv and install the locked versions first; only python3 >= 3.11 is needed.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
SCREENSHOT ?= demo-screenshot.png
# Qt without a display, on a desktop-sized screen (its own is 800 x 800): a window opens
# at the size it has on a desktop. The test suite sets the same itself.
OFFSCREEN := offscreen:configfile=$(CURDIR)/tests/offscreen-screen.json

.PHONY: help setup demo test bench translations lint format typecheck pytest coverage mutate lock clean package package-test a11y

help:
	@echo "make demo   set up, then run the viewer on the built-in demo server"
	@echo "make test   set up, then run ruff, mypy and the test suite (headless)"
	@echo "make bench  set up, then measure speed and memory against the demo server"
	@echo "make coverage  the branch coverage of the whole suite (not in make test)"
	@echo "make mutate MUTATE=<modules>  mutation-test api/ and services/ (slow; not in make test)"
	@echo "make a11y   read the app from the accessibility bus under Xvfb, as a screen reader does"
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
		QT_QPA_PLATFORM=$(OFFSCREEN) $(BIN)/python main.py --demo --screenshot $(SCREENSHOT) \
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

# The suite runs on every core (pytest-xdist): one worker per core, each test in one of
# them; TEST_WORKERS=0 runs it in this process alone, as `pytest` does.
TEST_WORKERS ?= auto

pytest: setup
	QT_QPA_PLATFORM=$(OFFSCREEN) $(BIN)/pytest --hypothesis-profile=thorough -n $(TEST_WORKERS)

test: lint typecheck pytest

# Branch coverage of the suite as `make test` runs it (docs/testing.md). pytest-cov lives
# in the `coverage` extra, so `make test` never installs or pays for it.
COVERAGE_STAMP := $(VENV)/.installed-coverage

$(COVERAGE_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet --constraint constraints.txt --editable '.[dev,coverage]'
	@touch $@

coverage: setup $(COVERAGE_STAMP)
	QT_QPA_PLATFORM=$(OFFSCREEN) $(BIN)/pytest --hypothesis-profile=thorough \
		--cov --cov-report=term --cov-report=html:htmlcov

# Mutation testing (docs/testing.md): each module in a copy of the tree, against its own
# tests. The tool lives in the `mutate` extra, so `make test` never installs it.
MUTATE_STAMP := $(VENV)/.installed-mutate
MUTATE_DIR   ?= .mutate
MUTATE       ?= $(filter-out %/__init__.py,$(sort $(wildcard cardviewer/api/*.py cardviewer/services/*.py)))

# [tool.cosmic-ray] of pyproject.toml with one module and its tests filled in.
define MUTATE_CONFIG
import sys, tomllib, toml
config = tomllib.load(open("pyproject.toml", "rb"))["tool"]["cosmic-ray"]
config["module-path"] = sys.argv[1]
config["test-command"] = config["test-command"].format(python=sys.executable, tests=sys.argv[2])
print(toml.dumps({"cosmic-ray": config}))
endef
export MUTATE_CONFIG

# The score of one module from `cosmic-ray dump`: mutants that are not valid Python and
# those the operators filter skips do not count; each survivor is listed with its line.
define MUTATE_SCORE
import json, sys
killed, survivors, invalid = 0, [], 0
for line in sys.stdin:
    job, result = json.loads(line)
    if not result or result["worker_outcome"] != "normal":
        continue
    if "SyntaxError" in result["output"]:
        invalid += 1
    elif result["test_outcome"] == "killed":
        killed += 1
    else:
        mutation = job["mutations"][0]
        survivors.append(f"  line {mutation['start_pos'][0]}: {mutation['operator_name']}")
total = killed + len(survivors)
print(f"{sys.argv[1]}: {killed} of {total} killed ({100 * killed / max(total, 1):.0f} %),"
      f" {invalid} not valid Python")
print("\n".join(survivors))
endef
export MUTATE_SCORE

$(MUTATE_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet --constraint constraints.txt --editable '.[dev,mutate]'
	@touch $@

mutate: setup $(MUTATE_STAMP)
	rm -rf $(MUTATE_DIR) && mkdir -p $(MUTATE_DIR)
	cp -r cardviewer tests pyproject.toml $(MUTATE_DIR)/
	find $(MUTATE_DIR) -name __pycache__ -prune -exec rm -rf {} +
	@cd $(MUTATE_DIR) && for module in $(MUTATE); do \
		name=$$(basename $$module .py); \
		tests=tests/$$(basename $$(dirname $$module))/test_$$name.py; \
		if [ ! -f $$tests ]; then echo "$$module: no $$tests, not measured"; continue; fi; \
		echo "== $$module against $$tests"; \
		$(CURDIR)/$(BIN)/python -c "$$MUTATE_CONFIG" $$module $$tests > $$name.toml \
		&& $(CURDIR)/$(BIN)/cosmic-ray init $$name.toml $$name.sqlite \
		&& $(CURDIR)/$(BIN)/cr-filter-operators $$name.sqlite $$name.toml \
		&& QT_QPA_PLATFORM=$(OFFSCREEN) $(CURDIR)/$(BIN)/cosmic-ray exec $$name.toml $$name.sqlite \
		&& $(CURDIR)/$(BIN)/cosmic-ray dump $$name.sqlite \
			| $(CURDIR)/$(BIN)/python -c "$$MUTATE_SCORE" $$module | tee $$name.txt \
		|| exit 1; \
	done
	@echo "Scores: $(MUTATE_DIR)/*.txt; the mutants: $(BIN)/cr-html $(MUTATE_DIR)/<module>.sqlite"

# The accessibility walk (docs/testing.md): the app read from the real AT-SPI bus under
# Xvfb, as Orca reads it. Not in `make test`: it installs what it needs on Debian (as root
# or with sudo) and starts a display, a session bus and the accessibility bus of its own.
A11Y_PYTHON   ?= /usr/bin/python3
A11Y_PACKAGES := xvfb at-spi2-core dbus python3-pyatspi gir1.2-atspi-2.0

a11y: setup
	@if ! command -v Xvfb >/dev/null 2>&1 || ! command -v dbus-daemon >/dev/null 2>&1 \
		|| ! $(A11Y_PYTHON) -c 'import pyatspi' >/dev/null 2>&1; then \
		if ! command -v apt-get >/dev/null 2>&1; then \
			echo "make a11y needs Xvfb, dbus-daemon, at-spi2-core and pyatspi for $(A11Y_PYTHON)."; \
			exit 2; \
		fi; \
		if [ "$$(id -u)" = 0 ]; then SUDO=; elif command -v sudo >/dev/null 2>&1; then SUDO=sudo; \
		else echo "make a11y needs, as root: apt-get install $(A11Y_PACKAGES)"; exit 2; fi; \
		echo "Installing $(A11Y_PACKAGES)"; \
		$$SUDO apt-get install -y --no-install-recommends $(A11Y_PACKAGES) \
			|| { $$SUDO apt-get update && \
				$$SUDO apt-get install -y --no-install-recommends $(A11Y_PACKAGES); } \
			|| exit 2; \
	fi
	$(A11Y_PYTHON) tests/a11y/bus_walk.py --python $(BIN)/python

bench: setup
	QT_QPA_PLATFORM=$(OFFSCREEN) $(BIN)/python -m bench

translations: setup
	$(BIN)/python -m cardviewer.i18n update

lock:
	rm -rf .lock-venv
	$(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet --upgrade pip
	.lock-venv/bin/python -m pip install --quiet '.[dev,mutate,coverage]'
	{ echo "# Exact versions for reproducible installs; 'make lock' rewrites this file."; \
	  .lock-venv/bin/python -m pip freeze --exclude cardviewer; } > constraints.txt
	rm -rf .lock-venv build

clean:
	rm -rf $(VENV) .venv-package .lock-venv build dist *.egg-info .mypy_cache .ruff_cache .pytest_cache .coverage htmlcov

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
