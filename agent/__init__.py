"""The heuristic agent (Loki/Poki, direct estimation); imports simulator, never the reverse."""
