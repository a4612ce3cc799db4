"""The HTTP edge: blueprints, request parsing and schemas, rate limits and CORS, logs and metrics."""
