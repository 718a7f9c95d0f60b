"""Rules, cards, evaluator, matches and tournaments. Never imports the agent package."""
