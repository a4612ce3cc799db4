"""The six levels, one module per family: ``easy`` (easy, basic), ``standard``
and ``pro`` (seed 000's Monte Carlo levels), ``normal_bid`` and ``normal``
(seed 002's compiled rules), ``hard`` with ``hard_inference`` and
``hard_scoring`` (seed 002's search)."""
