# Two commands on a fresh machine with Python 3.11:
#   make demo   creates .venv, installs jourdain, runs the cube-on-edge demo
#   make test   creates .venv, installs jourdain with test extras, runs the whole test suite
# Both install the exact versions of constraints.txt (the lock; pyproject.toml keeps the
# compatible ranges users get); `make lock` regenerates it after a dependency change.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
LOCK   ?= constraints.txt
# extras resolved into the lock (add a new optional extra here when tests or examples need it)
LOCK_EXTRAS ?= test,docs
PIP     = $(BIN)/python -m pip install --quiet -c $(LOCK)

.PHONY: demo test test-slow test-props test-browser docs docs-fast bench bench-robot bench-ocp bench-scale venv lock clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-test: pyproject.toml $(LOCK) | $(BIN)/python
	$(PIP) -e ".[test]"
	touch $@

venv: $(VENV)/.installed-test

demo: $(VENV)/.installed-test
	MPLBACKEND=Agg $(BIN)/python examples/cube_on_edge.py

# two worker processes (pytest-xdist): the CI machine has two cores; every test writes only
# into its own temporary directory, so the order and the split do not matter
test: $(VENV)/.installed-test
	MPLBACKEND=Agg $(BIN)/python -m pytest -q -n 2

test-slow: $(VENV)/.installed-test
	MPLBACKEND=Agg $(BIN)/python -m pytest -q -n 2 -m slow

# long exploration: the property-based tests on ~5,700 new random mechanisms (not the fixed
# cases of the default suite); a failure is kept in .hypothesis/ and replayed first next time
test-props: $(VENV)/.installed-test
	JOURDAIN_HYPOTHESIS=explore MPLBACKEND=Agg $(BIN)/python -m pytest -q -m slow \
		tests/test_properties.py

# Resolve the newest versions pyproject.toml allows (extras LOCK_EXTRAS) in a scratch venv and
# write them to the lock; then run `make test` and commit constraints.txt if it passes.
lock:
	rm -rf .lock-venv
	$(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet --upgrade pip
	.lock-venv/bin/python -m pip install --quiet -e ".[$(LOCK_EXTRAS)]"
	{ echo "# Exact versions known to pass 'make test' (Python $$(.lock-venv/bin/python -c \
	'import platform; print(platform.python_version(), platform.machine())')); pip install"; \
	  echo "# -c constraints.txt -e \".[test]\". Regenerate with 'make lock' (extras: $(LOCK_EXTRAS))."; \
	  .lock-venv/bin/python -m pip freeze --all --exclude-editable | grep -v '^pip=='; } > $(LOCK)
	rm -rf .lock-venv

# the HTML animation in a real browser: headless Chromium from Debian (root on our machines)
test-browser: $(VENV)/.installed-test
	if ! command -v chromium >/dev/null && command -v apt-get >/dev/null; then \
		apt-get update -qq && apt-get install -y -qq chromium; fi
	MPLBACKEND=Agg $(BIN)/python -m pytest -q -m browser

$(VENV)/.installed-docs: pyproject.toml $(LOCK) | $(BIN)/python
	$(PIP) -e ".[test,docs]"
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
	$(PIP) -e ".[bench]"
	MPLBACKEND=Agg $(BIN)/python benchmarks/chain.py
	MPLBACKEND=Agg $(BIN)/python benchmarks/trajectory.py

# crocoddyl, the peer of benchmarks/robot_ocp.py: its 3.2.1 wheel silently drops gravity with
# Pinocchio 4.1, so it runs in its own venv with pin 4.0.0 (one thread)
bench-robot: $(VENV)/.installed-test
	test -x .venv-crocoddyl/bin/python || $(PYTHON) -m venv .venv-crocoddyl
	.venv-crocoddyl/bin/python -m pip install --quiet crocoddyl==3.2.1 pin==4.0.0 \
		example-robot-data
	OMP_NUM_THREADS=1 CROCODDYL_PYTHON=.venv-crocoddyl/bin/python MPLBACKEND=Agg \
		$(BIN)/python benchmarks/robot_ocp.py

# the three problems of issue 27 against crocoddyl's BoxFDDP/FDDP (double pendulum, UR5,
# Talos arm), crocoddyl in the same venv as bench-robot; QUICK=1 for half the grids
bench-ocp: $(VENV)/.installed-test
	test -x .venv-crocoddyl/bin/python || $(PYTHON) -m venv .venv-crocoddyl
	.venv-crocoddyl/bin/python -m pip install --quiet crocoddyl==3.2.1 pin==4.0.0 \
		example-robot-data
	OMP_NUM_THREADS=1 CROCODDYL_PYTHON=.venv-crocoddyl/bin/python MPLBACKEND=Agg \
		$(BIN)/python benchmarks/ocp_vs_crocoddyl.py $(if $(QUICK),--quick)

bench-scale: $(VENV)/.installed-test
	$(PIP) pin mujoco  # the scale peers only (no opty build)
	MPLBACKEND=Agg $(BIN)/python benchmarks/scale.py --quick

clean:
	rm -rf $(VENV) .lock-venv build *.egg-info out docs/_build docs/generated \
		docs/auto_examples docs/_static/animations
