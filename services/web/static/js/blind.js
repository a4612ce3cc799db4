// The blind decision (house rules: blind nil, blind bids): a seat whose side trails may bid before
// looking at its cards. While the view says `hand_hidden`, the hand lies face down and, on the
// seat's turn, this panel offers the view's `legal_blind` bids (nil apart, its points named) and
// "Look at my cards", after which the seat bids as usual.

import { h } from "./dom.js";

/** Is this the seat's blind decision (its turn, its hand still face down)? */
export function isBlindDecision(view) {
  return view.phase === "bidding" && Boolean(view.hand_hidden) && (view.legal || []).includes("look");
}

/** ui: {onBlind(bid), onLook}. */
export function renderBlindDecision(view, { onBlind, onLook }) {
  const bids = view.legal_blind || [];
  const nil = bids.includes(0);
  const counts = bids.filter((b) => b > 0);
  const rules = view.rules;
  return h(
    "section.blind.overlay-panel",
    { "aria-labelledby": "blind-title", "data-testid": "blind-decision" },
    h("h2.panel-title", { id: "blind-title" }, "Bid blind?"),
    h(
      "p.blind-lead",
      {},
      rules.blind_margin ? `Your side trails by ${rules.blind_margin} or more: you` : "You",
      " may bid before looking at your cards.",
    ),
    h(
      "div.blind-choices",
      {},
      nil
        ? h(
            "button.blind-nil",
            { type: "button", onclick: () => onBlind(0), dataset: { testid: "blind-nil", focusKey: "blind-nil" } },
            h("span.blind-main", {}, "Blind nil"),
            h("span.blind-sub", {}, ` take no trick: ±${rules.blind_nil_value}`),
          )
        : null,
      h("button.primary.look", { type: "button", onclick: onLook, dataset: { testid: "look", focusKey: "look" } }, "Look at my cards"),
    ),
    counts.length
      ? h(
          "div.blind-bids-block",
          {},
          h("p.blind-caption", { id: "blind-bids-caption" }, "Or a blind bid — it scores double:"),
          h(
            "div.bid-buttons.blind-bids",
            { role: "group", "aria-labelledby": "blind-bids-caption" },
            counts.map((bid) =>
              h(
                "button.bid",
                { type: "button", "aria-label": `Blind bid ${bid}, scores double`, onclick: () => onBlind(bid), dataset: { blindBid: String(bid), focusKey: `blind-${bid}` } },
                String(bid),
              ),
            ),
          ),
        )
      : null,
  );
}

/** Your hand face down (a blind decision to come or under way). */
export function faceDownHand(count) {
  return h(
    "div.hand.face-down",
    { role: "img", "aria-label": `Your hand: ${count} cards, face down until your blind decision`, dataset: { testid: "hand-face-down", count: String(count) } },
    Array.from({ length: count }, () => h("div.slot", {}, h("span.card.card-back-big"))),
  );
}
