"""The agent's ``holdem`` subcommands: ``ehs``, ``explain`` and ``play``."""
