# Two commands on a fresh machine with Python 3.11:
#   make demo   creates .venv, installs jourdain, runs the cube-on-edge demo
#   make test   creates .venv, installs jourdain with test extras, runs the whole test suite
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin

.PHONY: demo test test-slow test-browser docs docs-fast bench bench-scale venv clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $@

venv: $(VENV)/.installed-test

demo: $(VENV)/.installed-test
	MPLBACKEND=Agg $(BIN)/python examples/cube_on_edge.py

test: $(VENV)/.installed-test
	MPLBACKEND=Agg $(BIN)/python -m pytest -q

test-slow: $(VENV)/.installed-test
	MPLBACKEND=Agg $(BIN)/python -m pytest -q -m slow

# the HTML animation in a real browser: headless Chromium from Debian (root on our machines)
test-browser: $(VENV)/.installed-test
	if ! command -v chromium >/dev/null && command -v apt-get >/dev/null; then \
		apt-get update -qq && apt-get install -y -qq chromium; fi
	MPLBACKEND=Agg $(BIN)/python -m pytest -q -m browser

$(VENV)/.installed-docs: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test,docs]"
	touch $@

# the documentation site: guide, API reference, gallery (runs every example); warnings fail
docs: $(VENV)/.installed-docs
	MPLBACKEND=Agg $(BIN)/python -m sphinx -W --keep-going -b html docs docs/_build/html

# the same without running the examples (what the test suite checks)
docs-fast: $(VENV)/.installed-docs
	MPLBACKEND=Agg $(BIN)/python -m sphinx -W --keep-going -b html -D plot_gallery=0 docs \
		docs/_build/html

bench: $(VENV)/.installed-test
	# opty's cyipopt compiles against the IPOPT library (Debian packages; root on our machines)
	if command -v apt-get >/dev/null && ! pkg-config --exists ipopt 2>/dev/null; then \
		apt-get update -qq && apt-get install -y -qq coinor-libipopt-dev liblapack-dev \
		libblas-dev pkg-config; fi
	$(BIN)/python -m pip install --quiet -e ".[bench]"
	MPLBACKEND=Agg $(BIN)/python benchmarks/chain.py
	MPLBACKEND=Agg $(BIN)/python benchmarks/trajectory.py

bench-scale: $(VENV)/.installed-test
	$(BIN)/python -m pip install --quiet pin mujoco  # the scale peers only (no opty build)
	MPLBACKEND=Agg $(BIN)/python benchmarks/scale.py --quick

clean:
	rm -rf $(VENV) build *.egg-info out docs/_build docs/generated docs/auto_examples \
		docs/_static/animations
