"""Layer 2: the Bot protocol, the match loop, the bot registry and the baseline bots."""
