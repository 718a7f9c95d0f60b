"""The pre-flop part of the agent: the 169 classes' income-rate tables and the pre-flop expert."""
