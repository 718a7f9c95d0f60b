"""The heuristic agent (Loki/Poki tradition, direct estimation). Imports simulator, never the reverse."""
