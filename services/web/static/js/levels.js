// The computer levels a game can seat, as the server lists them (GET /v1/levels): the one list
// lives in services/computers/catalogue.py, so the page never restates it. Fetched once per page. Their names
// and one-line descriptions are the catalogues' (`lobby.level.<name>`, `….summary`), by the level's code.

import { api } from "./api.js";
import { has, language, t } from "./i18n.js";
import { levelName } from "./seating.js";

let pending = null;

/** {levels: [{name, seed, description}], default_level, hint_level}; a failed fetch is retried next time. */
export function loadLevels() {
  pending ??= api.levels().catch((problem) => {
    pending = null;
    throw problem;
  });
  return pending;
}

/** The server's levels, weakest first (`strength`: 1 the weakest). */
export function byStrength(levels) {
  return [...levels.levels].sort((a, b) => (a.strength ?? 0) - (b.strength ?? 0));
}

/** A level's one line in the page's language: the catalogue's (`lobby.level.<name>.summary`), else the server's. */
export function levelSummary(level) {
  const key = `lobby.level.${level.name}.summary`;
  return has(key) ? t(key) : level.summary || level.description || "";
}

/** A level's name as a title ("Hard", "Sulit"). */
export function levelTitle(name) {
  const words = levelName(name);
  return words.charAt(0).toLocaleUpperCase(language()) + words.slice(1);
}
