"""Layer 1: cards, hand ranks, actions, game config, pots, positions, the hand state,
observations and events. Imports nothing above it."""
