# Two entry points, both self-contained on a fresh machine with Python 3.11+:
#   make demo   creates .venv, installs the toolkit, trains three algorithms on text shipped with Python
#   make test   creates .venv, installs the toolkit with its test extras, runs pytest: the tests and the
#               docstring examples of toolkit, algorithms and pretokenizers (see [tool.pytest.ini_options])
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: demo test test-slow bench clean

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

$(VENV)/.installed-bench: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test,bench]'
	touch $@ $(VENV)/.installed

demo: $(VENV)/.installed
	$(BIN)/python examples/demo.py

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q

test-slow: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q -m slow

bench: $(VENV)/.installed-bench
	$(BIN)/python examples/benchmarks/run_all.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
