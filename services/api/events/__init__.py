"""Events: arenas and duplicate pairs, their pairing, scoring and standings."""
