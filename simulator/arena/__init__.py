"""Layer 4: tournament configs, blocks and executors, the results store, statistics, luck
correction and plots."""
