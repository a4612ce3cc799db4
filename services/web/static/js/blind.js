// The blind decision (house rules: blind nil, blind bids): a seat whose side trails may bid before
// looking at its cards. While the view says `hand_hidden`, the hand lies face down and, on the
// seat's turn, this panel offers the view's `legal_blind` bids (nil apart, its points named) and
// "Look at my cards", after which the seat bids as usual.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** Is this the seat's blind decision (its turn, its hand still face down)? */
export function isBlindDecision(view) {
  return view.phase === "bidding" && Boolean(view.hand_hidden) && (view.legal || []).includes("look");
}

/** ui: {onBlind(bid), onLook, disabled (the choices shown, none to be made: the connection is down)}. */
export function renderBlindDecision(view, { onBlind, onLook, disabled = false }) {
  const bids = view.legal_blind || [];
  const nil = bids.includes(0);
  const counts = bids.filter((b) => b > 0);
  const rules = view.rules;
  return h(
    "section.blind.overlay-panel",
    { "aria-labelledby": "blind-title", "data-testid": "blind-decision" },
    h("h2.panel-title", { id: "blind-title" }, t("table.blind.title")),
    h("p.blind-lead", {}, rules.blind_margin ? t("table.blind.leadTrailing", { margin: rules.blind_margin }) : t("table.blind.lead")),
    h(
      "div.blind-choices",
      {},
      nil
        ? h(
            "button.blind-nil",
            { type: "button", disabled, onclick: () => onBlind(0), dataset: { testid: "blind-nil", focusKey: "blind-nil" } },
            h("span.blind-main", {}, t("table.bid.blindNil")),
            h("span.blind-sub", {}, ` ${t("table.blind.nilSub", { value: rules.blind_nil_value })}`),
          )
        : null,
      h("button.primary.look", { type: "button", disabled, onclick: onLook, dataset: { testid: "look", focusKey: "look" } }, t("table.blind.look")),
    ),
    counts.length
      ? h(
          "div.blind-bids-block",
          {},
          h("p.blind-caption", { id: "blind-bids-caption" }, t("table.blind.caption")),
          h(
            "div.bid-buttons.blind-bids",
            { role: "group", "aria-labelledby": "blind-bids-caption" },
            counts.map((bid) =>
              h(
                "button.bid",
                { type: "button", disabled, "aria-label": t("table.blind.bidLabel", { bid }), onclick: () => onBlind(bid), dataset: { blindBid: String(bid), focusKey: `blind-${bid}` } },
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
    { role: "img", "aria-label": t("table.blind.faceDown", { count }), dataset: { testid: "hand-face-down", count: String(count) } },
    Array.from({ length: count }, () => h("div.slot", {}, h("span.card.card-back-big"))),
  );
}
