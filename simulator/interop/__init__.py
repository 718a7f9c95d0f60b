"""Layer 3: hand histories (PHH) and other formats; imports core and play only."""
