"""Approximate equilibria of heads-up limit hold'em: the ``cfr`` bot's solver and data.

One module per concept (``README.md`` in this folder explains the whole):

* :mod:`~agent.equilibrium.tree`: the betting tree of a two-player fixed-limit game;
* :mod:`~agent.equilibrium.features`: exact hand-strength features and suit symmetry;
* :mod:`~agent.equilibrium.abstraction`: the card abstraction (buckets) and its file;
* :mod:`~agent.equilibrium.kernels`: the numba walk of the tree with vectors over holdings;
* :mod:`~agent.equilibrium.solver`: counterfactual regret minimisation over that walk;
* :mod:`~agent.equilibrium.training`: public chance sampling on heads-up limit hold'em;
* :mod:`~agent.equilibrium.strategy`: the strategy file, validated on load;
* :mod:`~agent.equilibrium.player`: the strategy's policy at a decision, which the ``cfr``
  bot draws from and the heuristic agent plays until its opponent deviates;
* :mod:`~agent.equilibrium.best_response`: the exploitability estimate;
* :mod:`~agent.equilibrium.tiny_games`: Kuhn poker and Leduc hold'em, with exact best
  responses, for testing the solver.
"""
