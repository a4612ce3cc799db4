// Your hand, pinned to the bottom edge: cards overlap as much as the width needs (13 always fit).
// On your turn the playable cards are raised; the others stay clickable but marked
// `aria-disabled`, and clicking one says why it can't be played (reasons.js). One card is in the
// tab order at a time; the arrow keys move between the playable ones (all of them off turn),
// Enter or Space plays. The hinted card carries "suggested" in its name.

import { cardLabel, sortHand } from "./cards.js";
import { h } from "./dom.js";
import { cardFace } from "./felt.js";
import { t } from "./i18n.js";
import { whyUnplayable } from "./reasons.js";

/**
 * ui: {canMove, blocked, myTurn, hintCard, focusCard, onPlay(card, el), onRefused(text)}. `focusCard` is the
 * card that should hold the tab stop (the one focused before a redraw, or the hinted one); `blocked`, why no
 * card can be sent now (the connection is down), is said for a card clicked on your turn.
 */
export function handArea(view, ui) {
  if (ui.passing) return passingHand(view, ui);
  const playing = view.phase === "playing" && ui.myTurn && ui.canMove;
  const legal = new Set(playing ? view.legal : []);
  const cards = sortHand(view.hand || [], view.rules);
  const playable = cards.filter((c) => legal.has(c));
  const rotation = playing && playable.length ? playable : cards;
  const stop = rotation.includes(ui.focusCard) ? ui.focusCard : rotation.includes(ui.hintCard) ? ui.hintCard : rotation[0];
  const label = playing
    ? t("table.hand.playable", { count: cards.length, playable: playable.length })
    : t("table.hand.label", { count: cards.length });
  return h(
    "div",
    {
      class: `hand${playing ? " my-turn" : ""}`,
      role: "group",
      "aria-label": label,
      dataset: { testid: "hand", count: String(cards.length) },
      onkeydown: (event) => arrows(event, playing),
    },
    inRows(cards.map((code) => {
      const enabled = legal.has(code);
      const hinted = ui.hintCard === code;
      let name = cardLabel(code, { highDeuce: view.rules.deuces_high });
      if (hinted) name = t("table.hand.hinted", { card: name });
      if (playing && !enabled) name = t("table.hand.unplayable", { card: name });
      const received = (ui.received || []).includes(code);
      const button = cardFace(code, {
        highDeuce: view.rules.deuces_high,
        extraClass: [hinted ? "hinted" : "", received ? "received" : ""].filter(Boolean).join(" "),
        attrs: {
          "aria-label": name,
          "aria-disabled": playing && !enabled ? "true" : null,
          tabindex: code === stop ? "0" : "-1",
          dataset: { focusKey: `card-${code}`, playable: enabled ? "yes" : "no" },
          onclick: (event) => {
            if (enabled && ui.canMove) return ui.onPlay(code, event.currentTarget);
            if (ui.blocked && ui.myTurn && view.phase === "playing") return ui.onRefused(ui.blocked);
            const why = whyUnplayable(view, code, { myTurn: ui.myTurn });
            if (why) ui.onRefused(why);
          },
        },
      });
      return h("div.slot", {}, button);
    })),
  );
}

/** The hand while choosing the cards to pass: each card a toggle (aria-pressed), the chosen ones raised. */
function passingHand(view, ui) {
  const cards = sortHand(view.hand || [], view.rules);
  const { selected, onToggle, count } = ui.passing;
  const stop = cards.includes(ui.focusCard) ? ui.focusCard : cards[0];
  return h(
    "div.hand.choosing",
    {
      role: "group",
      "aria-label": t("table.hand.choose", { count: cards.length, pass: count }),
      dataset: { testid: "hand", count: String(cards.length) },
      onkeydown: (event) => arrows(event, false),
    },
    inRows(cards.map((code) => {
      const chosen = selected.has(code);
      const full = !chosen && selected.size >= count;
      const hinted = (ui.passing.hinted || []).includes(code);
      const button = cardFace(code, {
        highDeuce: view.rules.deuces_high,
        extraClass: [chosen ? "chosen" : "", hinted ? "hinted" : ""].filter(Boolean).join(" "),
        attrs: {
          "aria-label": hinted ? t("table.hand.hinted", { card: cardLabel(code, { highDeuce: view.rules.deuces_high }) }) : cardLabel(code, { highDeuce: view.rules.deuces_high }),
          "aria-pressed": chosen ? "true" : "false",
          tabindex: code === stop ? "0" : "-1",
          dataset: { focusKey: `card-${code}`, chosen: chosen ? "yes" : "no" },
          onclick: () => (full ? ui.onRefused(t("table.hand.passFull", { count })) : onToggle(code)),
        },
      });
      return h("div.slot", {}, button);
    })),
  );
}

/**
 * The slots in rows of cards (`.hand-row`): with more than 7, the first ⌈n/2⌉ in a first row. On a
 * phone upright the rows are stacked, the second overlapping the first below its index corner, so
 * each card has room to be read and tapped; elsewhere they are one line (`display: contents`).
 */
function inRows(slots) {
  const split = slots.length > 7 ? Math.ceil(slots.length / 2) : slots.length;
  return [h("div.hand-row", {}, slots.slice(0, split)), split < slots.length ? h("div.hand-row", {}, slots.slice(split)) : null];
}

/** Arrow keys, Home and End move the focus (and the tab stop) between cards. */
function arrows(event, playing) {
  const keys = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1, Home: "first", End: "last" };
  const move = keys[event.key];
  if (move === undefined) return;
  const all = [...event.currentTarget.querySelectorAll("button.card")];
  const buttons = playing ? all.filter((b) => b.dataset.playable === "yes") : all;
  if (!buttons.length) return;
  const at = buttons.indexOf(document.activeElement);
  const index = move === "first" ? 0 : move === "last" ? buttons.length - 1 : (at + move + buttons.length) % buttons.length;
  for (const b of all) b.tabIndex = -1;
  buttons[index].tabIndex = 0;
  buttons[index].focus();
  event.preventDefault();
}
