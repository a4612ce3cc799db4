// The computer levels a game can seat, as the server lists them (GET /v1/levels): the one list
// lives in services/players/levels.py, so the page never restates it. Fetched once per page.

import { api } from "./api.js";

let pending = null;

/** {levels: [{name, seed, description}], default_level, hint_level}; a failed fetch is retried next time. */
export function loadLevels() {
  pending ??= api.levels().catch((problem) => {
    pending = null;
    throw problem;
  });
  return pending;
}
