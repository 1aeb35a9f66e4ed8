# Two entry points, both self-contained on a fresh machine with Python 3.11+:
#   make demo   creates .venv, installs the toolkit, trains the five algorithms on text shipped with Python
#   make test   creates .venv, installs the toolkit with its test extras, runs pytest: the tests and the
#               docstring examples of toolkit, algorithms and pretokenizers (see [tool.pytest.ini_options])
#   make test-slow  the slow set (-m slow); .ci/run runs both, with optional packages required
#   make notebooks  creates .venv with the notebook extra (JupyterLab) and opens it on examples/notebooks
#   make mutate creates .venv with the dev extra, mutation-tests the core modules (.ci/mutate, docs/testing.md);
#               MODULES="serialization alignment" limits the run
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# pytest-xdist: one test process per CPU (logical cores), at most 4 (each loads its own vocabularies); JOBS=0 runs the
# tests in pytest's own process (for --pdb). .ci/run passes the same options.
JOBS   ?= logical
PYTEST := $(BIN)/python -m pytest -q -n $(JOBS) --maxprocesses=4

.PHONY: demo test test-slow notebooks mutate bench clean

$(BIN)/python:
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is required"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@ $(VENV)/.installed

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $@ $(VENV)/.installed-test $(VENV)/.installed

$(VENV)/.installed-bench: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test,bench]'
	touch $@ $(VENV)/.installed

$(VENV)/.installed-notebook: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[notebook]'
	touch $@ $(VENV)/.installed

demo: $(VENV)/.installed
	$(BIN)/python examples/demo.py

test: $(VENV)/.installed-test
	$(PYTEST)

test-slow: $(VENV)/.installed-test
	$(PYTEST) -m slow

notebooks: $(VENV)/.installed-notebook
	$(BIN)/jupyter lab examples/notebooks

mutate: $(VENV)/.installed-dev
	PYTHON=$(abspath $(BIN)/python) .ci/mutate $(MODULES)

bench: $(VENV)/.installed-bench
	$(BIN)/python examples/benchmarks/run_all.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mutation
