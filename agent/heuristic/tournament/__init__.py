"""The agent in tournaments: prize equity (ICM) of its decisions and push-or-fold when short."""
