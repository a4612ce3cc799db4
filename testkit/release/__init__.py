"""A release meets the one before it (``benchmarks.release``): the test release built as an overlay on a copy of
the current tree (:mod:`.overlay`, its added files in ``next/``), the rolling steps on a chaos stack
(:mod:`.rolling`), and where the two releases met (:mod:`.meetings`)."""
