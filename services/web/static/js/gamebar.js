// The game's buttons in the top bar (last trick, scores, rules, invite, another device, leave) and the
// dialogs they open.
// They are drawn again only when the set of buttons changes, so a focused button keeps the focus
// while the table moves under it.

import { openDialog } from "./dialog.js";
import { fill, h } from "./dom.js";
import { renderScoreHistory } from "./summary.js";
import { invitePanel } from "./table.js";
import { variantWords } from "./variants.js";

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
  fill(meta, `Round ${view.round} · to ${view.rules.win_score}`);
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
      "Last",
      h("span.wide-only", {}, " trick"),
    ),
    h("button", { type: "button", onclick: ui.onScores, dataset: { testid: "scores-button" } }, "Scores"),
    h("button", { type: "button", onclick: ui.onRules, dataset: { testid: "rules-button" } }, "Rules"),
    canInvite ? h("button", { type: "button", onclick: ui.onInvite, dataset: { testid: "invite-button" } }, "Invite") : null,
    canRejoin ? h("button", { type: "button", onclick: ui.onRejoin, dataset: { testid: "rejoin-button" }, title: "Play on another device" }, h("span.device-long", {}, "Other device"), h("span.device-short", { "aria-hidden": "true" }, "⇄")) : null,
    canLeave ? h("button.leave", { type: "button", onclick: ui.onLeave, dataset: { testid: "leave-button" } }, "Leave") : null,
  );
}

export async function showScores(view, onReview) {
  await openDialog(renderScoreHistory(view, { onReview }), { testid: "scores", label: "Score history" });
}

/** The game's rules in words: its house rules first, then the scoring every game has. */
export function rulesList(rules) {
  const variants = variantWords(rules);
  const base = [
    rules.scoring === "partnership" ? "Partnership: South & North against West & East" : "Individual: everyone for themselves",
    `Game to ${rules.win_score}${rules.lose_score === null ? "" : `, or down to ${rules.lose_score}`}`,
    rules.nil ? `Nil ±${rules.nil_value}` : "No nil bids",
    rules.bag_penalty ? `${rules.bag_limit} bags cost ${rules.bag_penalty}` : "No bag penalty",
    rules.set_penalty === "negative" ? "A set contract loses 10 a trick" : "A set contract scores 0",
    rules.spades_must_be_broken ? "Spades can't be led until broken" : "Spades may be led any time",
  ];
  return h(
    "div.rules-list",
    { "data-testid": "rules-list" },
    h("h3.panel-title", {}, "House rules"),
    variants.length ? h("ul", { "data-testid": "house-rules-list" }, variants.map((w) => h("li", {}, w))) : h("p", {}, "None: the standard game."),
    h("h3.panel-title", {}, "Scoring"),
    h("ul", {}, base.map((w) => h("li", {}, w))),
  );
}

export async function showRules(view) {
  await openDialog(rulesList(view.rules), { testid: "rules", label: "This game's rules" });
}

export async function showInvites(view, gameId, onCopy) {
  const panel = invitePanel(view, gameId, onCopy);
  await openDialog(panel || h("p", {}, "Every seat is taken."), { testid: "invite", label: "Invite players" });
}

export async function confirmLeave() {
  const choice = await openDialog(
    h("p", {}, "Leave this table? A computer player takes over your seat, and your seat's link stops working in this browser."),
    { testid: "leave", label: "Leave the table", buttons: [{ label: "Stay", value: "stay" }, { label: "Leave", value: "leave", primary: true }] },
  );
  return choice === "leave";
}
