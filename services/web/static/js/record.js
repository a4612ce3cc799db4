// A finished game read from the records (GET /v1/games/{id}/record), once the live game is gone from the
// server: who won, and the score after each round. The record keeps every round's deal and tricks too;
// the round review needs the live game, so it is not offered here; the replay (replay.js) steps through it.

import { api } from "./api.js";
import { h } from "./dom.js";
import { formatDate, t } from "./i18n.js";
import { followLink, replayUrl } from "./router.js";
import { renderScoreHistory, winnerText } from "./summary.js";

/** The parts of a game view the summaries read, from a record (`you`: the seat this browser held, or null). */
export function recordView(record, you = null) {
  return {
    phase: "game_over",
    you,
    rules: record.rules,
    history: record.rounds,
    scores: record.result.scores,
    bags: record.result.bags,
    winner: record.result.winner,
  };
}

/** The record of a game, or null when the server keeps none (404). */
export async function fetchRecord(gameId) {
  try {
    return await api.getRecord(gameId);
  } catch (problem) {
    if (problem.status === 404) return null;
    throw problem;
  }
}

/** The page of a finished game no longer live: its result and score history. */
export function renderRecord(record, you = null) {
  const view = recordView(record, you);
  const result = record.outcome === "finished" ? winnerText(view) : t("lobby.record.abandoned");
  return h(
    "section.panel.record",
    { "data-testid": "record" },
    h("h1", {}, t("lobby.record.title")),
    h("p", { "data-testid": "record-result" }, result.charAt(0).toUpperCase() + result.slice(1)),
    h("p.note", {}, t("lobby.record.played", { when: formatDate(record.created_at, { dateStyle: "medium", timeStyle: "short" }) })),
    renderScoreHistory(view),
    h(
      "div.form-actions",
      {},
      record.rounds.length ? h("a.button.primary", { href: replayUrl(record.game_id, you), onclick: followLink, dataset: { testid: "record-replay" } }, t("lobby.record.replay")) : null,
      h("a.button", { href: "/play" }, t("lobby.back")),
    ),
  );
}
