"""The lobby: public tables listed, the lobby stream, quick match with strangers."""
