# Two entry points, each working on a fresh clone: `make demo` (set up the library and the
# CLI, play a small tournament, plot it) and `make test` (set up the test tools too, lint,
# type-check, run the tests).
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip -q
# An editable install: pip -q still shows setuptools' warning, on every one, that a folder in
# the working directory named like the package may take precedence in imports (here that
# folder is the package); -qq keeps pip to its errors.
PIP_EDITABLE := $(PY) -m pip -qq

# The library and the `holdem` command alone: what `make demo` needs (no test tools, no Ray).
$(VENV)/.base: pyproject.toml
	python3 -m venv $(VENV)
	$(PIP) install --upgrade pip
	$(PIP_EDITABLE) install -e '.[web]'
	touch $@

# Test tools and Ray, and the wheelhouse from which tests/test_wheel.py installs the built
# wheel's dependencies offline.
$(VENV)/.installed: $(VENV)/.base
	$(PIP_EDITABLE) install -e '.[dev,ray,web]'
	$(PY) -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))\
		['project']['dependencies'], sep='\n')" > $(VENV)/requirements-base.txt
	$(PIP) wheel -w $(VENV)/wheelhouse -r $(VENV)/requirements-base.txt
	touch $@

.PHONY: setup setup-base demo test test-all bench experiments cfr-tables cfr-strategy \
	cfr-exploitability
setup: $(VENV)/.installed
setup-base: $(VENV)/.base

demo: setup-base
	$(VENV)/bin/holdem run configs/demo.yaml --force
	@echo
	@echo "Next: '. $(VENV)/bin/activate' puts holdem on the PATH (or type $(VENV)/bin/holdem);"
	@echo "'holdem --help' lists the commands, 'holdem play' plays against the agent,"
	@echo "'holdem serve' opens the browser window (play, replay, reports)."

# The installed-wheel test takes over a minute, so it is marked slow; it runs here anyway, and
# so do the heavier smoke runs of experiments/ (every script in a tiny mode: a script that no
# longer runs fails here).
test: setup
	$(PY) -m ruff check .
	$(PY) -m mypy
	$(PY) -m pytest
	$(PY) -m pytest --runslow tests/test_wheel.py tests/test_experiments_smoke.py -m slow

test-all: setup
	$(PY) -m pytest --runslow

bench: setup
	$(PY) experiments/bench/bench_evaluator.py
	$(PY) experiments/bench/bench_hand_evaluator.py
	$(PY) experiments/bench/bench_engine.py
	$(PY) experiments/bench/bench_tournament.py
	$(PY) experiments/bench/bench_preflop.py
	$(PY) experiments/bench/bench_modeller.py --memory-hands 200000
	$(PY) experiments/bench/bench_agent.py
	$(PY) experiments/bench/bench_rivals.py
	$(PY) experiments/bench/bench_acpc.py
	$(PY) experiments/bench/bench_cfr.py

# The cfr bot's data (agent/equilibrium/README.md): the bucket file (about 2 minutes), the
# strategy (hours: see the README for the measured time) with the checkpoints the
# exploitability curve reads, and the curve itself.
CFR_SEED ?= 21
CFR_ITERATIONS ?= 4000
CFR_CHECKPOINTS ?= 250 500 1000 2000 3000 4000
cfr-tables: setup
	$(PY) experiments/build/make_cfr_tables.py --buckets 200 200 200

cfr-strategy: setup
	$(PY) experiments/build/make_cfr_strategy.py --seed $(CFR_SEED) --iterations $(CFR_ITERATIONS) \
		--workers 2 --checkpoints $(CFR_CHECKPOINTS) --checkpoint-dir results/cfr_checkpoints \
		--record experiments/results/cfr_build.json

cfr-exploitability: setup
	$(PY) experiments/studies/cfr_exploitability.py results/cfr_checkpoints --flops 8 --turns 3

# The strength experiments (hours on 2 cores; see experiments/README.md). Not tests.
experiments: setup
	$(PY) experiments/studies/paper_table.py && $(PY) experiments/studies/learning_curves.py \
		&& $(PY) experiments/studies/agent_floor.py \
		&& $(PY) experiments/studies/ablation.py --deals 6000 \
		&& $(PY) experiments/studies/sixmax_tables.py --deals 6000
	$(VENV)/bin/holdem league configs/league.yaml --force
