// Every problem+json the server answers, as a sentence a player can read; shown in one live region.

import { fill, h } from "./dom.js";
import { formatDate, has, t } from "./i18n.js";

// Each problem `code` has `problem.<code>` in the catalogues, each illegal move's `reason` `reason.<reason>`
// (tests/web/test_i18n.py: every code and reason openapi.yaml lists); "network" is the page's own.

/** A readable sentence for an ApiProblem (or any error). */
export function describeProblem(problem) {
  if (problem.code === "illegal_move" && problem.reason && has(`reason.${problem.reason}`)) return t(`reason.${problem.reason}`);
  if (problem.code === "invalid_request" && problem.errors && problem.errors.length) {
    return t("problem.invalid_request.because", { why: (problem.errors[0].message || "").replace(/^./, (c) => c.toLowerCase()) });
  }
  if (problem.code === "pairing_banned" && problem.endsAt) return t("problem.pairing_banned", { until: banEnd(problem.endsAt) });
  if (problem.code && has(`problem.${problem.code}`)) return t(`problem.${problem.code}`);
  return problem.detail || problem.message || t("problem.unknown");
}

/** When a pairing ban ends, in the reader's language: the time, with the date when it is not today. */
export function banEnd(endsAt, now = new Date()) {
  const end = new Date(endsAt);
  const sameDay = end.toDateString() === now.toDateString();
  return formatDate(end, sameDay ? { timeStyle: "short" } : { dateStyle: "medium", timeStyle: "short" });
}

let region = null;
let timer = null;
let toastTimer = null;

/**
 * A short note, read out politely: over the hand (why a card can't be played, a link copied), or at
 * the top (`place` "top": what happened at the table), clear of the seats and their clocks.
 */
export function showToast(text, place = "hand") {
  const toast = document.getElementById("toast");
  clearTimeout(toastTimer);
  toast.dataset.place = place;
  fill(toast, text);
  toast.hidden = false;
  toastTimer = setTimeout(() => {
    toast.hidden = true;
  }, 4000);
}

/** Show a message in the page's alert line (role=alert): tone "error" | "info". */
export function showMessage(text, tone = "error") {
  region = region || document.getElementById("message");
  clearTimeout(timer);
  region.dataset.tone = tone;
  fill(region, h("span.message-text", {}, text), h("button.message-close", {
    type: "button", "aria-label": t("app.dismiss"), onclick: clearMessage,
  }, "×"));
  region.hidden = false;
  if (tone === "info") timer = setTimeout(clearMessage, 6000);
}

export function showProblem(problem) {
  showMessage(describeProblem(problem), "error");
}

export function clearMessage() {
  region = region || document.getElementById("message");
  region.hidden = true;
  region.replaceChildren();
}
