"""Live updates: the per-process channel reader, the fan-out hub for waiting clients, the push stream."""
