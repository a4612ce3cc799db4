"""The service's Prometheus metrics, defined once for every room of the API.

Under several gunicorn workers each process writes its samples to ``PROMETHEUS_MULTIPROC_DIR``
(:mod:`services.api.http.observability` aggregates them for ``/metrics``).
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

REQUESTS = Counter("spades_http_requests_total", "HTTP requests served.", ["method", "route", "status"])
LATENCY = Histogram(
    "spades_http_request_duration_seconds",
    "Time to serve an HTTP request (long polls included).",
    ["method", "route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)
MOVES = Counter(
    "spades_moves_total", "Moves offered, by kind and outcome (accepted or the refusal code).", ["kind", "outcome"]
)
GAMES_CREATED = Counter("spades_games_created_total", "Games created.")
GAMES_FINISHED = Counter("spades_games_finished_total", "Games that reached game_over.")
AI_DECISION_SECONDS = Histogram(
    "spades_ai_decision_seconds",
    "From sending an AI turn to the workers to applying its move.",
    ["level"],
    buckets=(0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)
AI_QUEUE_WAIT_SECONDS = Histogram(
    "spades_ai_queue_wait_seconds",
    "From sending an AI turn to applying its move, less the worker's own time on it (the result's elapsed_ms): "
    "the time it waited in its queue, plus the broker's and the result's hops. By class: interactive (a person "
    "or a bot sits in the game) or bulk (a computer-only game).",
    ["class"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)
AI_PAUSES = Counter(
    "spades_ai_pauses_total",
    "Computer-only games paused because nobody read them for PAUSE_UNWATCHED_SECONDS (paused), and paused games "
    "a read set going again (resumed).",
    ["event"],
)
QUOTA_REFUSALS = Counter(
    "spades_quota_refusals_total",
    "Game creations refused by a quota, by the refusal's code (create_rate_limited, too_many_games, "
    "too_many_computer_games).",
    ["code"],
)
WAITING_REFUSALS = Counter(
    "spades_waiting_refusals_total",
    "Waiting requests (streams, long polls with wait, hints, round reviews) refused with 429 too_many_waiting: "
    "their client address or seat token already had MAX_WAITING_PER_ADDRESS or MAX_WAITING_PER_TOKEN waiting. "
    "By the cap that refused them (address, token).",
    ["holder"],
)
AI_REISSUED = Counter(
    "spades_ai_decisions_reissued_total", "AI turns sent again after their deadline passed.", ["level"]
)
AI_FALLBACK_MOVES = Counter(
    "spades_ai_fallback_moves_total",
    "Computer moves the API played itself (basic's move): no worker answered, or the game's broker node is down.",
    ["node"],
)
AI_DECISIONS_SENT = Counter("spades_ai_decisions_sent_total", "AI turns sent to the workers.", ["level"])
AI_RESULT_SUBSCRIPTIONS = Gauge(
    "spades_ai_result_subscriptions",
    "AI task results the result listeners are subscribed to (tasks sent, hints abandoned, awaiting results).",
    multiprocess_mode="livesum",
)
AI_RESULTS_RECEIVED = Counter(
    "spades_ai_results_received_total",
    "AI task results delivered to the result listeners, by what they were to the process: a decision it sent, "
    "a hint it abandoned, or neither (none expected: each process subscribes only to its own tasks).",
    ["kind"],
)
# livesum: the sum over live workers (a dead worker's waiting clients are gone with it)
FANOUT_LISTENERS = Gauge(
    "spades_fanout_listeners",
    "Waiting clients (long polls and streams) on the fan-out hubs.",
    multiprocess_mode="livesum",
)
FANOUT_SUBSCRIPTIONS = Gauge(
    "spades_fanout_subscriptions", "Games the fan-out hubs are subscribed to.", multiprocess_mode="livesum"
)
STORE_ERRORS = Counter("spades_store_errors_total", "Failed calls to the game store (Redis).", ["error"])
STORE_SLOT_RETRIES = Counter(
    "spades_store_slot_retries_total",
    "Game store writes sent again on a Redis Cluster, by why: MOVED (the slot has another master), ASK (the key is "
    "on the next master of a slot being migrated), TRYAGAIN (a script's keys split by a slot's migration: waited "
    "out), refused (no connection to the node: nothing was sent).",
    ["reply"],
)
RECORDS_WRITTEN = Counter(
    "spades_records_written_total", "Game records written to the records database, by outcome.", ["outcome"]
)
RECORD_WRITE_FAILURES = Counter(
    "spades_record_write_failures_total", "Record writes the database refused or missed (retried later)."
)
TABLE_MESSAGES = Counter(
    "spades_table_messages_total",
    "Quick messages posted to game tables, by outcome (sent, or too_many_messages: refused by the seat's rate limit).",
    ["outcome"],
)
REJOINS = Counter(
    "spades_rejoins_total",
    "Seats handed to a new token: rejoin codes redeemed (redeemed), seats taken back with their player's credential "
    "(taken), and redeems refused (refused: no live code matched).",
    ["outcome"],
)
SEAT_RELEASES = Counter(
    "spades_seat_releases_total",
    "Games whose seats held through a dead player credential were released (released: a revoked session or a "
    "rotated player token, the seat kept for its player; left: a deleted player's), and settlings that failed "
    "(failed: the store or the records database did not answer; the next settling tries again).",
    ["outcome"],
)
REMATCH_SEATS = Counter(
    "spades_rematch_seats_total",
    "Rematch seats: games offered (offered), people who took their reserved seat (joined), and reserved seats "
    "handed to computer stand-ins when the wait ended (released).",
    ["event"],
)
PRESENCE_HOLDS = Counter(
    "spades_presence_holds_total",
    "Presence leases taken or renewed by streams and long polls holding a seat's token (each one store call).",
)
MATCH_REQUESTS = Counter(
    "spades_match_requests_total",
    "Quick-match requests, by event: submitted, seated, cancelled (by their client), dropped (their player "
    "deleted themselves while they waited).",
    ["outcome"],
)
MATCH_REQUESTS_WAITING = Gauge(
    "spades_match_requests_waiting",
    "Quick-match requests waiting for a seat now (read from the store by each process's sweeper; every live "
    "process reports the same figure, so the largest is the current one).",
    multiprocess_mode="livemax",
)
MATCH_SEAT_SECONDS = Histogram(
    "spades_match_seat_seconds",
    "From a quick-match request to its seat (the game created with it in it).",
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120),
)
MATCHES_FORMED = Counter(
    "spades_matches_formed_total", "Games created by quick match, by how many people sit in them.", ["people"]
)
TURN_TIMEOUTS = Counter(
    "spades_turn_timeouts_total", "Person's turns whose clock ran out: the computer made the move (the takeover level)."
)
TIMEOUT_LATENESS = Histogram(
    "spades_timeout_lateness_seconds",
    "From a person's deadline to the commit of the computer's move for them (the sweep, the decision, the commit).",
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2.5, 5, 10, 30),
)
SERVICE_OUTAGES = Counter(
    "spades_service_outages_total",
    "Gaps in the service's heartbeat longer than CLOCK_OUTAGE_SECONDS (no API process reached the store): each one "
    "given back to the turn clocks that ran through it; counted by the process whose beat found it.",
)
SEATS_AWAY = Counter(
    "spades_seats_away_total",
    "People's seats that went away (timed out twice in a row: the computer plays them) and came back, by event.",
    ["event"],
)
