"""The agent's hand evaluator: ranges, board tables, HS/PPOT/NPOT/EHS against weighted ranges."""
