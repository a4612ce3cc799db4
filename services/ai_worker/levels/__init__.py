"""The levels: one module per catalogue level (``services.computers.LEVELS``), named as the level, each
with ``move(view, seed)`` (the hint level's also with ``analysis(view, seed)``); :mod:`..dispatch` finds
them by that name.  The other modules are parts the levels share: ``normal_bid`` (normal's hand
reading), ``hard_inference`` and ``hard_scoring`` (hard's search), ``dd`` (expert's exact endgame)."""
