"""Game commands: create, claim, leave, move; views, the event log, idempotency, seat tokens. No Flask."""
