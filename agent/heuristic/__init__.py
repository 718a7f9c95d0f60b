"""The direct-estimation heuristic agent, the bot registered as ``heuristic``
(:mod:`agent.heuristic.bot`), and the steps of its decision: the pre-flop policy, the
post-flop pipeline (views, strength, E, selector), the learners and the trace records."""
