"""The game store: the GameStore protocol and its Redis (single or Cluster) and in-memory implementations."""
