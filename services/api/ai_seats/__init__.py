"""Computer players' seats: the hooks every commit calls, sending AI turns, applying their results, hints."""
