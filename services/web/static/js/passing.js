// The nil exchange (house rules: `nil_pass_cards`): in phase `passing` a nil bidder and its partner
// each give the other `pass_count` cards face down. On the seat's turn its cards are toggles (tap to
// select); this panel counts them and sends exactly that many. The seat then sees what it gave and,
// once the cards have changed hands, what it received (hand.js marks them). Nobody else sees them.

import { cardLabel, cardName, sortHand } from "./cards.js";
import { h } from "./dom.js";
import { cardFace } from "./felt.js";
import { formatList, t } from "./i18n.js";
import { partnerOf, seatName } from "./seating.js";

/** Is it this seat's turn to choose its cards? */
export function isPassTurn(view) {
  return view.phase === "passing" && view.you !== null && view.turn === view.you && (view.legal || []).length > 0;
}

/** "West and East": the seats exchanging this round. */
export function exchangers(view) {
  return formatList((view.passing_seats || []).map(seatName));
}

function cardRow(cards, rules) {
  return h("span.pass-cards", {}, sortHand(cards, rules).map((c) => cardFace(c, { extraClass: "mini" })));
}

/** ui: {selected (Set), onPass, canMove, disabled (the cards may be chosen, not sent: the connection is down)}.
 * The panel of the seat's own exchange, or null when it has none. */
export function renderPassing(view, { selected, onPass, canMove, disabled = false }) {
  const passes = view.passes || { gave: [], received: [] };
  const partner = seatName(partnerOf(view.you));
  const count = view.pass_count;
  if (isPassTurn(view) && canMove) {
    const chosen = [...selected];
    const ready = chosen.length === count;
    return h(
      "section.passing.overlay-panel",
      { "aria-labelledby": "passing-title", "data-testid": "passing" },
      h("h2.panel-title", { id: "passing-title" }, t("table.passing.title", { count, seat: partner })),
      h("p.pass-lead", {}, t("table.passing.lead")),
      h(
        "div.pass-row",
        {},
        h(
          "span",
          { class: `pass-count${ready ? " ready" : ""}`, role: "status", "data-testid": "pass-count" },
          t("table.passing.count", { chosen: chosen.length, count }),
        ),
        chosen.length ? cardRow(chosen, view.rules) : null,
        h(
          "button.primary.pass-button",
          { type: "button", disabled: !ready || disabled, onclick: () => onPass(chosen), dataset: { testid: "pass-button", focusKey: "pass" } },
          t("table.passing.button", { count }),
        ),
      ),
    );
  }
  if (view.phase === "passing" && passes.gave.length) {
    return h(
      "section.passing.overlay-panel",
      { "aria-label": t("table.passing.yours"), "data-testid": "passing-gave" },
      h("p.pass-line", {}, t("table.passing.gave", { seat: partner }), " ", cardRow(passes.gave, view.rules), h("span.visually-hidden", {}, passes.gave.map(cardLabel).join(", "))),
      h("p.pass-lead", {}, t("table.passing.waiting", { seat: partner })),
    );
  }
  return null;
}

/** After the exchange, until the first trick is over: what the seat gave and received. */
export function exchangeNote(view) {
  const passes = view.passes;
  if (!passes || !passes.received.length || view.phase !== "playing" || view.tricks.length > 0) return null;
  const partner = seatName(partnerOf(view.you));
  return h(
    "p.exchange-note",
    { "data-testid": "exchange-note" },
    t("table.passing.received", { seat: partner }),
    " ",
    h("strong", {}, passes.received.map(cardName).join(", ")),
    t("table.passing.youGave", { cards: passes.gave.map(cardName).join(", ") }),
  );
}
