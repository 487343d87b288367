# crates-sim: `make demo` runs the main job on defaults, `make test` runs the tests.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup demo test bench lint clean

# setup ends by loading (or, on a new machine, compiling: 18-40 s on two cores) the engine
# and every built-in strategy into numba's cache (crates compile), so that every command
# starts warm
setup: $(STAMP)
	$(BIN)/crates compile

# the editable install maps the one name crates_sim to this checkout's folder (setuptools'
# finder; crates_sim/strategies and crates_sim/analysis are links to the top-level folders;
# see pyproject.toml): `import analysis` elsewhere fails, as with a wheel; no warning
$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test,dask]'
	touch $(STAMP)

# demo: classic partnerships, a team keeping its 3s (keep3:three=100, as greedy) against one
# dumping them (dump3), 20,000 deals each played with the teams swapped (seats rotated), with
# hands/; its report (results/demo/report.html) answers whether keeping 3s pays, how often
# pressures happen and which seats are favoured (crates demo: analysis/demo.py)
demo: setup
	$(BIN)/crates demo --deals 20000 --seed 1 --out results/demo

# the suite on two workers (pytest-xdist), a module (or class) to a worker so that a
# module's fixtures are made once, in tests/conftest.py's order (the slowest first, the
# help examples in two halves); `pytest -n 0` runs it in one process
test: setup
	$(BIN)/python -m pytest -n 2 --dist loadscope --no-loadscope-reorder

# rlcard: RLCard's uno is the yardstick of the PettingZoo environment's step
bench: setup
	$(BIN)/python -c 'import rlcard' 2>/dev/null || $(BIN)/pip install -q 'rlcard>=1.2'
	$(BIN)/crates bench --big

lint: setup
	$(BIN)/ruff check crates_sim strategies analysis tests examples

clean:
	rm -rf $(VENV) results/demo .pytest_cache
