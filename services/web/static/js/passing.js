// The nil exchange (house rules: `nil_pass_cards`): in phase `passing` a nil bidder and its partner
// each give the other `pass_count` cards face down. On the seat's turn its cards are toggles (tap to
// select); this panel counts them and sends exactly that many. The seat then sees what it gave and,
// once the cards have changed hands, what it received (hand.js marks them). Nobody else sees them.

import { cardName, sortHand } from "./cards.js";
import { h } from "./dom.js";
import { cardFace } from "./felt.js";
import { partnerOf, seatName } from "./seating.js";

/** Is it this seat's turn to choose its cards? */
export function isPassTurn(view) {
  return view.phase === "passing" && view.you !== null && view.turn === view.you && (view.legal || []).length > 0;
}

/** "West and East": the seats exchanging this round. */
export function exchangers(view) {
  return (view.passing_seats || []).map(seatName).join(" and ");
}

function cardRow(cards, rules) {
  return h("span.pass-cards", {}, sortHand(cards, rules).map((c) => cardFace(c, { extraClass: "mini" })));
}

/** ui: {selected (Set), onPass}. The panel of the seat's own exchange, or null when it has none. */
export function renderPassing(view, { selected, onPass, canMove }) {
  const passes = view.passes || { gave: [], received: [] };
  const partner = seatName(partnerOf(view.you));
  const count = view.pass_count;
  if (isPassTurn(view) && canMove) {
    const chosen = [...selected];
    const ready = chosen.length === count;
    return h(
      "section.passing.overlay-panel",
      { "aria-labelledby": "passing-title", "data-testid": "passing" },
      h("h2.panel-title", { id: "passing-title" }, `Pass ${count} card${count > 1 ? "s" : ""} to your partner (${partner})`),
      h("p.pass-lead", {}, "Tap cards in your hand to choose them. The cards change hands once both of you have chosen."),
      h(
        "div.pass-row",
        {},
        h(
          "span",
          { class: `pass-count${ready ? " ready" : ""}`, role: "status", "data-testid": "pass-count" },
          `${chosen.length} of ${count} chosen`,
        ),
        chosen.length ? cardRow(chosen, view.rules) : null,
        h(
          "button.primary.pass-button",
          { type: "button", disabled: !ready, onclick: () => onPass(chosen), dataset: { testid: "pass-button", focusKey: "pass" } },
          `Pass ${count === 1 ? "it" : `these ${count}`}`,
        ),
      ),
    );
  }
  if (view.phase === "passing" && passes.gave.length) {
    return h(
      "section.passing.overlay-panel",
      { "aria-label": "Your exchange", "data-testid": "passing-gave" },
      h("p.pass-line", {}, `You gave ${partner}: `, cardRow(passes.gave, view.rules), h("span.visually-hidden", {}, passes.gave.map(cardName).join(", "))),
      h("p.pass-lead", {}, `Waiting for ${partner} to choose…`),
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
    `${partner} passed you `,
    h("strong", {}, passes.received.map(cardName).join(", ")),
    `; you gave ${passes.gave.map(cardName).join(", ")}.`,
  );
}
