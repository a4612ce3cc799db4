"""The Spades game service: rules engine, REST API and AI workers."""
