// The game's buttons in the top bar (last trick, scores, rules, invite, another device, leave) and the
// dialogs they open.
// They are drawn again only when the set of buttons changes, so a focused button keeps the focus
// while the table moves under it.

import { openDialog } from "./dialog.js";
import { fill, h } from "./dom.js";
import { ratedMark } from "./fairplay.js";
import { renderScoreHistory } from "./summary.js";
import { invitePanel } from "./table.js";
import { t } from "./i18n.js";
import { tableRuleWords, variantWords } from "./rulewords.js";

const closeButton = () => [{ label: t("app.close"), value: "close", primary: true }];

let drawn = "";

/** ui: {view, lastTrickOpen, onToggleLastTrick, onScores, onInvite, onLeave, onRejoin}; null clears the bar. */
export function drawGameBar(ui) {
  const slot = document.getElementById("game-controls");
  const meta = document.getElementById("game-meta");
  if (!ui) {
    drawn = "";
    slot.replaceChildren();
    meta.replaceChildren();
    return;
  }
  const { view } = ui;
  fill(meta, t("lobby.bar.meta", { round: view.round, score: view.rules.win_score }), ratedChip(view));
  const canInvite = view.phase !== "waiting" && view.phase !== "game_over" && view.seats.some((s) => s.claimable);
  const canLeave = view.you !== null && view.phase !== "game_over";
  const canRejoin = Boolean(ui.onRejoin);
  const signature = [canInvite, canLeave, canRejoin].join();
  if (signature === drawn && slot.childElementCount) {
    const toggle = slot.querySelector("[data-testid=last-trick-button]");
    toggle.setAttribute("aria-expanded", ui.lastTrickOpen ? "true" : "false");
    return;
  }
  drawn = signature;
  fill(
    slot,
    h(
      "button",
      {
        type: "button",
        "aria-expanded": ui.lastTrickOpen ? "true" : "false",
        onclick: ui.onToggleLastTrick,
        dataset: { testid: "last-trick-button" },
      },
      h("span.bar-short", { "aria-hidden": "true" }, t("lobby.bar.last")), // the name is the whole phrase beside
      h("span.bar-long", {}, t("lobby.bar.lastTrick")),
    ),
    h("button", { type: "button", onclick: ui.onScores, dataset: { testid: "scores-button" } }, t("lobby.bar.scores")),
    h("button", { type: "button", onclick: ui.onRules, dataset: { testid: "rules-button" } }, t("lobby.bar.rules")),
    canInvite ? h("button", { type: "button", onclick: ui.onInvite, dataset: { testid: "invite-button" } }, t("lobby.bar.invite")) : null,
    canRejoin ? h("button", { type: "button", onclick: ui.onRejoin, dataset: { testid: "rejoin-button" }, title: t("lobby.rejoin.title") }, h("span.device-long", {}, t("lobby.bar.otherDevice")), h("span.device-short", { "aria-hidden": "true" }, "⇄")) : null,
    canLeave ? h("button.leave", { type: "button", onclick: ui.onLeave, dataset: { testid: "leave-button" } }, t("lobby.bar.leave")) : null,
  );
}

/** "Rated" beside the round and the target while the game counts; "Not rated: <why>" once it stopped. */
function ratedChip(view) {
  const mark = ratedMark(view);
  if (!mark) return null;
  return h("span", { class: `rated-mark${mark.rated ? " rated" : " unrated"}`, title: mark.title, dataset: { testid: "rated-mark", rated: mark.rated ? "yes" : "no" } }, mark.text);
}

export async function showScores(view, onReview) {
  await openDialog(renderScoreHistory(view, { onReview }), { testid: "scores", label: t("lobby.bar.scoreHistory"), buttons: closeButton() });
}

/** The game's rules in words: its house rules first, then every rule the table applies (the team
 * minimum the bid panel enforces, nil, bags, how the game ends…), all in the player's words. */
export function rulesList(rules) {
  const variants = variantWords(rules);
  return h(
    "div.rules-list",
    { "data-testid": "rules-list" },
    h("h3.panel-title", {}, t("lobby.rules.house")),
    variants.length ? h("ul", { "data-testid": "house-rules-list" }, variants.map((w) => h("li", {}, w))) : h("p", { "data-testid": "no-house-rules" }, t("lobby.rules.noHouse", { count: rules.win_score })),
    h("h3.panel-title", {}, t("lobby.rules.table")),
    h("ul", { "data-testid": "table-rules-list" }, tableRuleWords(rules).map((w) => h("li", {}, w))),
  );
}

export async function showRules(view) {
  await openDialog(rulesList(view.rules), { testid: "rules", label: t("lobby.rules.title"), buttons: closeButton() });
}

export async function showInvites(view, gameId, onCopy) {
  const panel = invitePanel(view, gameId, onCopy);
  await openDialog(panel || h("p", {}, t("lobby.invite.full")), { testid: "invite", label: t("lobby.invite.title"), buttons: closeButton() });
}

/** `cost`: what leaving a rated game costs now (fairplay.js `leaveCost`: "abort", "forfeit" or null). */
export async function confirmLeave(cost = null) {
  const warning = cost ? h("p.leave-warning", { dataset: { testid: "leave-warning", cost } }, t(cost === "abort" ? "lobby.leave.ratedAbort" : "lobby.leave.ratedForfeit")) : null;
  const choice = await openDialog(
    [warning, h("p", {}, t("lobby.leave.question"))],
    { testid: "leave", label: t("lobby.leave.title"), buttons: [{ label: t("lobby.leave.stay"), value: "stay" }, { label: t("lobby.bar.leave"), value: "leave", primary: true }] },
  );
  return choice === "leave";
}
