# The two commands of the README: `make demo` and `make test`.  Both set up
# what is missing (SWI-Prolog from Debian, a virtualenv with pyab) and are
# quick when everything is there already.  Run as root on Debian/Ubuntu.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test bench setup debs chromium latex lint pytest plunit pythons pack clean hooks

demo: setup
	$(BIN)/pyab solve examples/slides.tree

test: setup chromium latex lint pytest plunit pythons

setup: debs $(STAMP)

# Debian packages pyab runs on, installed with one apt-get only when missing:
# SWI-Prolog (the engine), Graphviz (`pyab draw -o X.dot` laid out), librsvg's
# rsvg-convert (`pyab draw -o X.png|.pdf`: the SVG picture rasterised) and
# poppler-utils (pdftotext: the tests read a PDF picture's labels); and a C
# compiler with Python's headers, for the compiled DSL scanner (pyab/dsl/_cscan.c)
# and the compiled loader (pyab/prolog/_cload.c): optional for users, built and
# tested here; python3-dev only when $(PYTHON) is Debian's own and its headers
# are missing; bubblewrap, the sandbox of --untrusted (pyab/referee/sandbox.py);
# python3-greenlet, for the system Python that runs an --untrusted --python
# program (pyab/referee/pychild.py switches its searches in user space with it).
PY_HEADERS := $(shell $(PYTHON) -c "import os, sysconfig; print(int(os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h'))))" 2>/dev/null)
MISSING_DEBS = $(if $(shell command -v swipl),,swi-prolog-nox) $(if $(shell command -v dot),,graphviz) \
  $(if $(shell command -v rsvg-convert),,librsvg2-bin) $(if $(shell command -v pdftotext),,poppler-utils) \
  $(if $(shell command -v gcc),,gcc) $(if $(filter 1,$(PY_HEADERS)),,python3-dev) \
  $(if $(shell command -v bwrap),,bubblewrap) \
  $(if $(shell /usr/bin/python3 -c 'import greenlet' 2>/dev/null && echo y),,python3-greenlet)

debs:
	@if [ -n "$(strip $(MISSING_DEBS))" ]; then \
	  echo "installing $(strip $(MISSING_DEBS)) with apt-get"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(MISSING_DEBS); \
	fi

# Debian's Chromium for the HTML stepper's browser tests (Playwright drives
# it; `playwright install` is never run: the browser comes from apt), and
# Node.js for the referee's JavaScript --exec client (examples/referee/client.js).
chromium:
	@test -x /usr/bin/chromium || { \
	  echo "installing Chromium with apt-get (for the browser tests)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium \
	  || echo "warning: could not install chromium; the browser tests will be skipped"; }
	@command -v node >/dev/null || { \
	  echo "installing Node.js with apt-get (for the JavaScript referee client)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs \
	  || echo "warning: could not install nodejs; the JavaScript client's tests will be skipped"; }

# Debian's LaTeX with TikZ, for the test that compiles pyab's .tex pictures
# (tests/render/test_tikz.py): the two packages that hold pdflatex and
# tikz.sty, without their recommendations (about 64 MB to download).  Where
# it cannot be had, that test is skipped with the reason.
latex:
	@command -v pdflatex >/dev/null && kpsewhich tikz.sty >/dev/null || { \
	  echo "installing LaTeX and TikZ with apt-get (for the .tex pictures' test)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	    texlive-latex-base texlive-pictures \
	  || echo "warning: could not install LaTeX; the TikZ test will be skipped"; }

# aima-python (PyPI `aima`) for the referee's test of its unchanged
# alpha_beta_search: the package declares Python < 3.11 and pulls in
# TensorFlow and friends, but its games module needs only numpy (a test
# extra), so it is installed without its declared dependencies.
$(STAMP): pyproject.toml setup.py pyab/dsl/_cscan.c pyab/prolog/_cload.c pyab/prolog/_crecord.c pyab/prolog/_ctable.c pyab/prolog/_swi.h
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q -e '.[test]'
	$(BIN)/pip install -q --no-deps --ignore-requires-python aima==2024.9.28
	@$(BIN)/python -c "import pyab.dsl._cscan" 2>/dev/null || { \
	  echo "the compiled scanner pyab/dsl/_cscan.c was not built (a C compiler and Python's headers are needed)"; exit 1; }
	@$(BIN)/python -c "import pyab.prolog._cload" 2>/dev/null || { \
	  echo "the compiled loader pyab/prolog/_cload.c was not built (a C compiler and Python's headers are needed)"; exit 1; }
	@touch $@

# For contributors: git checks each commit message (tools/hooks/commit-msg:
# a subject of at most 72 characters, a blank line before the body).
hooks:
	git config core.hooksPath tools/hooks

# ruff (pyflakes, pycodestyle) and mypy, configured in pyproject.toml; the
# HTML pages' scripts (pyab/render/assets/) checked by Node.js, which the
# chromium target installs (skipped with a warning where it is missing).
lint:
	$(BIN)/ruff check pyab tests benchmarks tools examples
	$(BIN)/mypy
	@if command -v node >/dev/null; then for f in pyab/render/assets/*.js tests/js/*.js; do \
	  node --check $$f || exit 1; done; echo "node --check: pyab/render/assets/*.js tests/js/*.js"; \
	else echo "warning: node is missing; the pages' scripts were not checked"; fi

pytest:
	$(BIN)/python -m pytest

plunit:
	swipl -g run_tests -t halt prolog/tests/all.pl

# pyab's sdist installed by pip on every Python 3.10-3.13 this machine has
# (on PATH or under pyenv; the absent ones are named), each in a fresh
# virtualenv running solve, check, grade and the shipped plunit tests: a
# line a Python, about 30 s each.  The full suite above runs on one Python.
pythons:
	$(BIN)/python tools/pythons.py

# Every speed and memory figure beside its yardstick (docs/performance.md);
# BENCH=--quick for a 100,000-node tree instead of a million.
bench: setup $(VENV)/.bench
	$(BIN)/python -m benchmarks $(BENCH)

# The peers of the Python mirror, for the benchmark only (pyproject's `bench`
# extra; aima3 without its notebook dependencies, see pyproject.toml).
$(VENV)/.bench: pyproject.toml
	$(BIN)/pip install -q -e '.[bench]'
	$(BIN)/pip install -q --no-deps 'aima3==1.0.11'
	@touch $@

# The SWI-Prolog pack (pack.pl): the algorithm programs and
# library(pyab/tree_dsl) as plain files under prolog/pyab/, so
# `[library(pyab/alphabeta)]` loads the slides' program after pack_install;
# the example trees under prolog/pyab/examples/ (library(pyab/examples/slides));
# the plunit files that run outside a checkout under prolog/pyab/tests/, run by
# `?- use_module(library(pyab/pyab_test)), pyab_test.`  The bridge, the
# referee's child and trees/table.pl (it reads pyab's C extension) are
# pyab's own and stay out.  tests/test_package.py installs
# the pack in a throwaway pack folder; docs/prolog.md is its manual.
PACK_DIR ?= build/pack/pyab
PACK_TESTS := alphabeta.plt variants.plt tree_dsl.plt   # as setup.py's INSTALLED_TESTS
pack:
	@rm -rf $(PACK_DIR) && mkdir -p $(PACK_DIR)/prolog/pyab/examples $(PACK_DIR)/prolog/pyab/tests
	cp pack.pl $(PACK_DIR)/
	cd prolog && find . -name '*.pl' ! -name 'pyab_bridge.pl' ! -path './bridge/*' \
	  ! -path './tests/*' ! -path './referee/*' ! -path './trees/table.pl' -exec cp --parents {} $(abspath $(PACK_DIR))/prolog/pyab/ \;
	cp $(addprefix prolog/tests/,$(PACK_TESTS)) $(PACK_DIR)/prolog/pyab/tests/
	cp examples/*.pl examples/*.tree $(PACK_DIR)/prolog/pyab/examples/
	cp -r examples/courses $(PACK_DIR)/prolog/pyab/examples/
	@echo "pack in $(PACK_DIR)"

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis && find . -name .git -prune -o \( -name __pycache__ -o -name '*.so' \) -prune -exec rm -rf {} +
