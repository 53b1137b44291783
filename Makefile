# The two commands of the README: `make demo` and `make test`.  Both set up
# what is missing (SWI-Prolog from Debian, a virtualenv with pyab) and are
# quick when everything is there already.  Run as root on Debian/Ubuntu.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test setup swipl pytest plunit clean

demo: setup
	$(BIN)/pyab solve examples/slides.tree

test: setup pytest plunit

setup: swipl $(STAMP)

swipl:
	@command -v swipl >/dev/null 2>&1 || { \
	  echo "installing SWI-Prolog (swi-prolog-nox) with apt-get"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq swi-prolog-nox; }

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q -e '.[test]'
	@touch $@

pytest:
	$(BIN)/python -m pytest

plunit:
	swipl -g run_tests -t halt prolog/tests/all.pl

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
