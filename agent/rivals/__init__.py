"""The rival panel: independent bots the agent is measured against.

Each is registered by name in the ``holdem.bots`` entry-point group, takes a ``seed`` for
its own generator, plays limit, no-limit and pot-limit (one bet in limit is a pot-sized bet
in no-limit and pot-limit) at 2-10 seats:

* ``mc`` (:mod:`agent.rivals.mc`): Monte-Carlo equity against random hands of the live
  opponents; folds below the pot odds, raises at 1.5 / players or more, else calls.
* ``rock`` (:mod:`agent.rivals.rock`): tight-passive; few hands, bets only strong ones.
* ``maniac`` (:mod:`agent.rivals.maniac`): loose-aggressive; most hands, bets and bluffs often.
* ``exploiter`` (:mod:`agent.rivals.exploiter`): adaptive, Vexbot's stand-in; learns each
  opponent's folds, raises and shown bluffs within a block and prices its actions on them.
* ``loki`` (:mod:`agent.rivals.loki`): Loki-1 (Papp 1998), Pokibrat's stand-in; the pre-flop
  expert, then make2 / make1 on EHS' against its own opponent weight arrays, semi-bluffs,
  pot and showdown odds, randomised near the thresholds.
* ``vexbot`` (:mod:`agent.rivals.vexbot`): Vexbot (Billings et al. 2004), heads-up limit
  only; miximax over the rest of the hand's betting tree against a learned opponent model
  (action counts and showdown histograms per betting context, decayed, backed off to
  ``cfr``'s self-play).
* ``cfr`` (:mod:`agent.rivals.cfr`): Sparbot's stand-in, heads-up limit only; the average
  strategy of counterfactual regret minimisation in a card abstraction
  (:mod:`agent.equilibrium`), a table look-up per decision.

Shared parts: the equity kernel (:mod:`agent.strength.equity`), hand values on one 0..1 scale
(:mod:`agent.rivals.hand_values`), bet sizes and pot odds (:mod:`agent.rivals.betting`), the
style player behind ``rock`` and ``maniac`` (:mod:`agent.rivals.style`) and the exploiter's
opponent statistics (:mod:`agent.rivals.tendencies`).
"""
