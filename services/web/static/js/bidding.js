// The bidding panel: exactly the legal bids (from the view's `legal`), nil labelled, and why some
// bids are missing when the team minimum or maximum bites.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { isPartnership, partnerOf, seatName } from "./seating.js";

/** Why the legal bids are fewer than 0–13, or "". */
export function bidConstraint(view) {
  const legal = view.legal;
  if (!isPartnership(view) || view.you === null) return "";
  const { min_team_bid: min, max_team_bid: max, nil } = view.rules;
  const partner = partnerOf(view.you);
  const partnerBid = view.bids[partner];
  const lowest = legal.filter((b) => b > 0)[0];
  const parts = [];
  if (partnerBid !== null && partnerBid > 0 && lowest > 1) {
    parts.push(t(nil && legal.includes(0) ? "table.bidding.minimumOrNil" : "table.bidding.minimum", { seat: seatName(partner), bid: partnerBid, min, lowest }));
  }
  const highest = legal[legal.length - 1];
  if (highest < 13) {
    parts.push(t(partnerBid === null ? "table.bidding.roomForPartner" : "table.bidding.maximum", { max, highest }));
  }
  if (!nil) parts.push(t("table.bidding.noNil"));
  return parts.join(" ");
}

/** Where the focus starts: never on nil (one stray Enter must not bid it) — the hinted bid, else the
 * lowest non-nil bid. */
export function firstFocus(legal, hintedBid) {
  if (hintedBid !== undefined && hintedBid !== null && legal.includes(hintedBid)) return hintedBid;
  const counted = legal.filter((b) => b > 0);
  return counted.length ? counted[0] : legal[0];
}

/**
 * The bidding panel, drawn over the table: the legal counts in order, nil apart at the end. Arrow
 * keys (and Home/End) move between the buttons; one of them is in the tab order.
 * ui: {onBid, hintedBid, focusBid, disabled (every bid shown, none to be chosen: the connection is down)}.
 */
export function renderBidding(view, { onBid, hintedBid, focusBid, disabled = false }) {
  const note = bidConstraint(view);
  const counts = view.legal.filter((b) => b > 0);
  const nil = view.legal.includes(0);
  const stop = view.legal.includes(focusBid) ? focusBid : firstFocus(view.legal, hintedBid);
  const button = (bid) =>
    h(
      "button.bid",
      {
        type: "button",
        class: [bid === 0 ? "bid-nil" : "", bid === hintedBid ? "hinted" : ""].filter(Boolean).join(" "),
        tabindex: bid === stop ? "0" : "-1",
        disabled,
        dataset: { bid: String(bid), focusKey: `bid-${bid}` },
        "aria-label": bidLabel(bid, bid === hintedBid),
        onclick: () => onBid(bid),
      },
      bid === 0 ? t("table.bid.nil") : String(bid),
    );
  return h(
    "section.bidding.overlay-panel",
    { "aria-labelledby": "bidding-title", "data-testid": "bidding" },
    h("h2.panel-title", { id: "bidding-title" }, t("table.bidding.title"), h("span.title-more", {}, t("table.bidding.question"))),
    h(
      "div.bid-buttons",
      { role: "group", "aria-label": t("table.bidding.legal"), onkeydown: arrows },
      counts.map(button),
      nil ? button(0) : null,
    ),
    note ? h("p.bid-note", { "data-testid": "bid-note" }, note) : null,
  );
}

/** A bid button's name: what it shows first ("Nil (take no trick)", "Bid 3" for "3"). */
function bidLabel(bid, hinted) {
  const name = bid === 0 ? t("table.bidding.nilLabel") : t("table.bid.count", { bid });
  return hinted ? t("table.hand.hinted", { card: name }) : name;
}

function arrows(event) {
  const keys = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1, Home: "first", End: "last" };
  const move = keys[event.key];
  if (move === undefined) return;
  const buttons = [...event.currentTarget.querySelectorAll("button")];
  const at = buttons.indexOf(document.activeElement);
  const index = move === "first" ? 0 : move === "last" ? buttons.length - 1 : (at + move + buttons.length) % buttons.length;
  for (const b of buttons) b.tabIndex = -1;
  buttons[index].tabIndex = 0;
  buttons[index].focus();
  event.preventDefault();
}
