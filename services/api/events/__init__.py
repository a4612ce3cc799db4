"""Events: duplicate pairs (a movement of fixed partners, every table of a round dealt the same cards, matchpoints)
over ordinary games; the domain (movements, matchpoints, the event and its rounds) is pure, its storage behind
:class:`services.api.events.storage.EventStorage`, and the HTTP edge in :mod:`services.api.http.event_routes`."""
