# Two entry points, each working on a fresh clone: `make demo` (set up, play a small
# tournament, plot it) and `make test` (set up, lint, run the tests).
VENV ?= .venv
PY := $(VENV)/bin/python

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev,ray]'
	touch $@

.PHONY: setup demo test test-all bench experiments cfr-tables cfr-strategy cfr-exploitability
setup: $(VENV)/.installed

demo: setup
	$(VENV)/bin/holdem run configs/demo.yaml --force

test: setup
	$(PY) -m ruff check .
	$(PY) -m pytest

test-all: setup
	$(PY) -m pytest --runslow

bench: setup
	$(PY) experiments/bench_evaluator.py
	$(PY) experiments/bench_hand_evaluator.py
	$(PY) experiments/bench_engine.py
	$(PY) experiments/bench_tournament.py
	$(PY) experiments/bench_preflop.py
	$(PY) experiments/bench_modeller.py --memory-hands 200000
	$(PY) experiments/bench_agent.py
	$(PY) experiments/bench_rivals.py
	$(PY) experiments/bench_acpc.py
	$(PY) experiments/bench_cfr.py

# The cfr bot's data (agent/equilibrium/README.md): the bucket file (about 2 minutes), the
# strategy (hours: see the README for the measured time) with the checkpoints the
# exploitability curve reads, and the curve itself.
CFR_SEED ?= 21
CFR_ITERATIONS ?= 6000
CFR_CHECKPOINTS ?= 250 500 1000 2000 4000 6000
cfr-tables: setup
	$(PY) experiments/make_cfr_tables.py --buckets 200 200 200

cfr-strategy: setup
	$(PY) experiments/make_cfr_strategy.py --seed $(CFR_SEED) --iterations $(CFR_ITERATIONS) \
		--workers 2 --checkpoints $(CFR_CHECKPOINTS) --checkpoint-dir results/cfr_checkpoints \
		--record experiments/results/cfr_build.json

cfr-exploitability: setup
	$(PY) experiments/cfr_exploitability.py results/cfr_checkpoints --flops 8 --turns 3

# The strength experiments (hours on 2 cores; see README "Results"). Not tests.
experiments: setup
	cd experiments && ../$(PY) paper_table.py && ../$(PY) learning_curves.py \
		&& ../$(PY) agent_floor.py && ../$(PY) ablation.py --deals 6000 \
		&& ../$(PY) sixmax_tables.py --deals 6000
	$(VENV)/bin/holdem league configs/league.yaml --force
