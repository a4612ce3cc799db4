"""The records' tables, as SQLAlchemy Core metadata (the Alembic migrations in ``migrations/`` create them).

``game_records`` holds one row per game: the record document as JSON text (``body``) and the columns the
listing filters and orders on; ``record_seats`` one row per seat, so "games a level played", "games a
level won" and "games a player played" (``player_id``) are indexed lookups.  Times are Unix milliseconds (the same on every database).  ``hidden`` marks a
record no read may return yet (:mod:`services.api.records.repository`: an abandoned game's, until its game is
gone); the few hidden rows have an index of their own.

The players' tables live here too (one database, one migration history):

- ``players``: a person, a bot or a computer level (kind), its display name with its two keys (each unique:
  ``name_key`` for the name casefolded, ``shape_key`` for the name as drawn; :mod:`services.api.players.names`)
  and the hash of its bearer token; a deleted player keeps its row with no name, no keys and no token, so its
  games stay, anonymised.
- ``name_key_rules``: one row, the rules the stored name keys were made by (``names.KEY_RULES``): when the
  running code's differ, the keys are made again (:mod:`services.api.players.rekey`).
- ``player_ratings``: one rating per player and board (:mod:`services.ratings.model`), ``score`` being the
  ordinal the leaderboards rank on and ``provisional`` whether the rating is off the leaderboards: provisional
  (:mod:`services.ratings.provisional`), or its player held by the fair-play watch
  (:func:`services.api.ratings.watch.holds`); ``rating_buckets`` counts the players of each board and kind per sixteenth of a point
  of score (:mod:`services.ratings.buckets`) whose rating is not provisional, so a player's rank is a sum over
  buckets plus a count inside one bucket.
- ``bucket_rules``: one row, the rules the stored ``provisional`` flags and the buckets were counted by: when
  the running code's differ, they are counted again (:mod:`services.api.ratings.recount`).
- ``player_stats``: what a player's finished games add up to.
- ``player_games``: a player's games, newest first (their page and the rating chart), with the game's final
  scores, and the rating before and after and the player's rated games on the board with this one
  (``games_after``) when the game was rated.
- ``game_ratings``: one row per finished game whose players' ratings and stats were applied: the guard that
  applies each game exactly once, and why it moved no rating when the fair-play watch held it or an operator
  removed it (``unrated_reason``).
- ``fair_play_outcomes``, ``pairing_bans``, ``fair_play_flags``: the fair-play watch
  (:mod:`services.api.ratings.watch`): each player's recent outcomes in games made to count, their bans from
  pairing, and the flags an operator decides.
- ``game_accuracy``: a person's accuracy in one rated game (a row per game and seat): its decisions scored against
  expert's analysis from the seat's view, and its cards against the true deal, added up
  (:mod:`services.ratings.accuracy`); the profile's accuracy and the flag read a player's rows.
- ``accuracy_jobs``: the rated games whose people's moves are still to be scored, written with the game's ratings
  and worked off by the accuracy collector (:mod:`services.api.ratings.collector`): when each is due, how often
  its analyses were sent, and the decisions sent or scored so far (``work``, JSON).
- ``player_sessions``, ``link_codes``, ``recovery_codes``: a player's devices (:mod:`services.api.players.sessions`,
  :mod:`services.api.players.device_codes`): each device's session (the hash of its bearer credential, its name,
  when it was made, last seen and revoked), the short single-use codes that link another device (hashed, until
  they expire) and the player's set of single-use recovery codes (hashed).
- ``passkeys``, ``passkey_challenges``: a player's passkeys (:mod:`services.api.players.passkeys`: each credential's
  id, public key, signature counter, transports, name, when made and last used) and the WebAuthn challenges the
  server gave out (hashed, each answered once, until it expires).
- ``follows``, ``blocks``, ``player_presence``, ``player_notices``: friends (:mod:`services.api.players.friends`,
  :mod:`services.api.players.presence`, :mod:`services.api.players.invites`): whom a player follows and whom it
  blocked, when each player was last seen and the public table it last sat down at, and the notices (invites) in a
  player's lobby until they expire.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    false,
    text,
    true,
)

metadata = MetaData()

game_records = Table(
    "game_records",
    metadata,
    Column("game_id", String(64), primary_key=True),
    Column("version", Integer, nullable=False),  # the game's version recorded: a later one replaces it
    Column("outcome", String(16), nullable=False),  # finished | abandoned
    Column("created_ms", BigInteger, nullable=False),
    Column("ended_ms", BigInteger, nullable=False),  # a finished game's end; an abandoned game's last change
    Column("recorded_ms", BigInteger, nullable=False),
    Column("body", Text, nullable=False),  # the record document (JSON)
    Column("hidden", Boolean, nullable=False, server_default=false()),  # not shown yet: its game may still be live
    Index("game_records_newest", "ended_ms", "game_id"),
    Index("game_records_hidden", "game_id", sqlite_where=text("hidden = 1"), postgresql_where=text("hidden")),
)

record_seats = Table(
    "record_seats",
    metadata,
    Column("game_id", String(64), ForeignKey("game_records.game_id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player", String(16), nullable=False),  # human, or the computer level
    Column("won", Boolean, nullable=False),
    Column("player_id", String(40)),  # the seat's player (services.api.players), None for a person without one
    Index("record_seats_player", "player", "won", "game_id"),
    Index("record_seats_player_id", "player_id", "game_id"),
)

players = Table(
    "players",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("kind", String(8), nullable=False),  # person | bot | computer
    Column("name", String(64)),  # None once deleted
    Column("name_key", String(64)),  # sha256 of the casefolded name's UTS #39 skeleton: unique
    Column("token_hash", String(64)),  # sha256 of the bearer token; None once revoked or deleted
    Column("created_ms", BigInteger, nullable=False),
    Column("deleted_ms", BigInteger),
    Column("shape_key", String(64)),  # sha256 of the name's UTS #39 skeleton, case kept: unique
    Index("players_name_key", "name_key", unique=True),
    Index("players_token_hash", "token_hash", unique=True),
    Index("players_shape_key", "shape_key", unique=True),
)

name_key_rules = Table(
    "name_key_rules",
    metadata,
    Column("rules", String(200), primary_key=True),  # names.KEY_RULES when the keys were made
    Column("keyed_ms", BigInteger, nullable=False),
)

player_ratings = Table(
    "player_ratings",
    metadata,
    Column("player_id", String(40), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("board", String(16), primary_key=True),  # partnership | individual
    Column("kind", String(8), nullable=False),  # the player's kind: a leaderboard is per board and kind
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("score", Float, nullable=False),  # ordinal: mu - 3 sigma, what the leaderboards rank on
    Column("games", Integer, nullable=False),
    Column("updated_ms", BigInteger, nullable=False),
    Column("provisional", Boolean, nullable=False, server_default=true()),  # off the boards: provisional, or held
    Index("player_ratings_rank", "board", "kind", "provisional", "score", "player_id"),
)

bucket_rules = Table(
    "bucket_rules",
    metadata,
    Column("rules", String(200), primary_key=True),
    Column("counted_ms", BigInteger, nullable=False),
)

rating_buckets = Table(
    "rating_buckets",
    metadata,
    Column("board", String(16), primary_key=True),
    Column("kind", String(8), primary_key=True),
    Column("bucket", Integer, primary_key=True),  # floor(score × 16): services.ratings.buckets
    Column("players", Integer, nullable=False),
)

player_stats = Table(
    "player_stats",
    metadata,
    Column("player_id", String(40), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("contracts_bid", Integer, nullable=False),  # rounds its side bid tricks (not nil)
    Column("contracts_made", Integer, nullable=False),
    Column("sets", Integer, nullable=False),  # contracts its side failed
    Column("nils_bid", Integer, nullable=False),  # nil and blind nil, by the player
    Column("nils_made", Integer, nullable=False),
    Column("bags", Integer, nullable=False),
    Column("updated_ms", BigInteger, nullable=False),
)

player_games = Table(
    "player_games",
    metadata,
    Column("player_id", String(40), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("game_id", String(64), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("ended_ms", BigInteger, nullable=False),
    Column("won", Boolean, nullable=False),
    Column("board", String(16), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("mu_before", Float),  # rated games only
    Column("sigma_before", Float),
    Column("mu_after", Float),
    Column("sigma_after", Float),
    Column("games_after", Integer),  # the player's rated games on the board, this one included
    Column("scores", Text),  # the final scores per side (JSON); None: its record was gone when the column came
    Index("player_games_newest", "player_id", "ended_ms", "game_id"),
)

game_ratings = Table(
    "game_ratings",
    metadata,
    Column("game_id", String(64), primary_key=True),
    Column("rated", Boolean, nullable=False),
    Column("applied_ms", BigInteger, nullable=False),
    Column("unrated_reason", String(16)),  # flagged (held by the watch) | removed (a confirmed flag's game)
)

fair_play_outcomes = Table(
    "fair_play_outcomes",
    metadata,
    Column("player_id", String(40), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("game_id", String(64), primary_key=True),
    Column("ended_ms", BigInteger, nullable=False),
    Column("outcome", String(16), nullable=False),  # services.ratings.watch.OUTCOMES
    Column("fast", Boolean, nullable=False),  # the game ended within watch.FAST_ROUNDS rounds
    Column("beat", Text, nullable=False),  # the opponents placed below, space-separated ids
    Column("lost_to", Text, nullable=False),  # the opponents placed above
    Index("fair_play_outcomes_newest", "player_id", "ended_ms"),
)

pairing_bans = Table(
    "pairing_bans",
    metadata,
    Column("player_id", String(40), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("started_ms", BigInteger, primary_key=True),
    Column("ends_ms", BigInteger, nullable=False),
)

OPEN_FLAG = text("status = 'open'")  # one open flag of a kind per player
fair_play_flags = Table(
    "fair_play_flags",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("player_id", String(40), ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("kind", String(16), nullable=False),  # sandbagging | boosting | accuracy
    Column("status", String(16), nullable=False),  # open | cleared | confirmed
    Column("raised_ms", BigInteger, nullable=False),
    Column("decided_ms", BigInteger),
    Column("games", Text, nullable=False),  # JSON: the games that raised it
    Column("detail", Text, nullable=False),  # JSON: what the rule saw
    Index("fair_play_flags_player", "player_id", "status"),
    Index("fair_play_flags_status", "status", "raised_ms", "id"),
    Index("fair_play_flags_open", "player_id", "kind", unique=True, sqlite_where=OPEN_FLAG, postgresql_where=OPEN_FLAG),
)

game_accuracy = Table(
    "game_accuracy",
    metadata,
    Column("game_id", String(64), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", String(40), ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("decisions", Integer, nullable=False),  # scored decisions (services.ratings.accuracy)
    Column("accurate", Integer, nullable=False),
    Column("given_away", Float, nullable=False),  # points given away, in all
    Column("cards", Integer, nullable=False),  # cards with a trick excess
    Column("trick_excess", Float, nullable=False),  # their trick excess, in all
    Column("true_cards", Integer, nullable=False, server_default="0"),  # cards scored on the true deal
    Column("true_agreed", Integer, nullable=False, server_default="0"),  # of them, agreeing with it
    Column("scored_ms", BigInteger, nullable=False),
    Index("game_accuracy_player", "player_id", "scored_ms"),
)

accuracy_jobs = Table(
    "accuracy_jobs",
    metadata,
    Column("game_id", String(64), primary_key=True),
    Column("due_ms", BigInteger, nullable=False),  # claimed: moved a lease ahead
    Column("sends", Integer, nullable=False),  # how often its analyses were sent (a resend for lost answers adds 1)
    Column("work", Text),  # JSON: each decision's task or score (services.api.ratings.collector); null: not sent
    Column("created_ms", BigInteger, nullable=False),
    Index("accuracy_jobs_due", "due_ms"),
)

player_sessions = Table(
    "player_sessions",
    metadata,
    Column("id", String(40), primary_key=True),  # ses_…: names the session to its player (list, revoke)
    Column("player_id", String(40), ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("token_hash", String(64), nullable=False),  # sha256 of the session's bearer credential (sps_…)
    Column("name", String(64), nullable=False),  # the device's name, as its holder gave it
    Column("via", String(16), nullable=False),  # how it signed in: link | recovery
    Column("created_ms", BigInteger, nullable=False),
    Column("last_seen_ms", BigInteger, nullable=False),  # moved at most once a minute
    Column("revoked_ms", BigInteger),  # kept after a revocation, so its next request is told so
    Index("player_sessions_token_hash", "token_hash", unique=True),
    Index("player_sessions_player", "player_id", "created_ms"),
)

link_codes = Table(
    "link_codes",
    metadata,
    Column("code_hash", String(64), primary_key=True),  # sha256 of the code, in its one spelling
    Column("player_id", String(40), ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    Column("expires_ms", BigInteger, nullable=False),
    Column("used_ms", BigInteger),  # single use: set by the sign-in that used it
    Column("session_id", String(40)),  # the session it made
    Index("link_codes_player", "player_id", "created_ms"),
)

recovery_codes = Table(
    "recovery_codes",
    metadata,
    Column("code_hash", String(64), primary_key=True),  # sha256 of the code, in its one spelling
    Column("player_id", String(40), ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    Column("used_ms", BigInteger),  # single use
    Index("recovery_codes_player", "player_id"),
)

passkeys = Table(
    "passkeys",
    metadata,
    Column("id", String(40), primary_key=True),  # pk_…: names the passkey to its player (list, delete)
    Column("player_id", String(40), ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("credential_id", String(1400), nullable=False),  # base64url of the authenticator's credential id
    Column("public_key", LargeBinary, nullable=False),  # COSE key, as registered
    Column("sign_count", BigInteger, nullable=False),  # the authenticator's signature counter, last seen
    Column("transports", String(200), nullable=False),  # comma-separated hints for the browser (usb, internal…)
    Column("name", String(64), nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    Column("last_used_ms", BigInteger),
    Index("passkeys_credential", "credential_id", unique=True),
    Index("passkeys_player", "player_id", "created_ms"),
)

passkey_challenges = Table(
    "passkey_challenges",
    metadata,
    Column("challenge_hash", String(64), primary_key=True),  # sha256 of the challenge
    Column("purpose", String(16), nullable=False),  # register | sign_in
    Column("player_id", String(40), ForeignKey("players.id", ondelete="CASCADE")),  # a registration's player
    Column("created_ms", BigInteger, nullable=False),
    Column("expires_ms", BigInteger, nullable=False),
    Column("used_ms", BigInteger),  # single use: set by the answer that was accepted
    Index("passkey_challenges_expiry", "expires_ms"),
)

follows = Table(
    "follows",
    metadata,
    Column("player_id", String(40), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),  # who follows
    Column("followed_id", String(40), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("created_ms", BigInteger, nullable=False),
    Index("follows_followed", "followed_id"),
)

blocks = Table(
    "blocks",
    metadata,
    Column("player_id", String(40), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),  # who blocked
    Column("blocked_id", String(40), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("created_ms", BigInteger, nullable=False),
    Index("blocks_blocked", "blocked_id"),
)

player_presence = Table(
    "player_presence",
    metadata,
    Column("player_id", String(40), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("seen_ms", BigInteger, nullable=False),  # a request with its Player-Token; moved at most once a minute
    Column("game_id", String(64)),  # the public table it last sat down at (checked against the game when read)
    Column("seat", Integer),
)

player_notices = Table(
    "player_notices",
    metadata,
    Column("id", String(40), primary_key=True),  # ntc_…
    Column("player_id", String(40), ForeignKey("players.id", ondelete="CASCADE"), nullable=False),  # whose lobby
    Column("kind", String(16), nullable=False),  # invite
    Column("from_id", String(40), ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("game_id", String(64), nullable=False),
    Column("seat", Integer, nullable=False),  # an open seat when it was sent
    Column("created_ms", BigInteger, nullable=False),
    Column("expires_ms", BigInteger, nullable=False),
    Index("player_notices_one", "player_id", "from_id", "game_id", unique=True),  # an invite again replaces it
    Index("player_notices_player", "player_id", "expires_ms"),
)
