// The bidding panel: exactly the legal bids (from the view's `legal`), nil labelled, and why some
// bids are missing when the team minimum or maximum bites.

import { h } from "./dom.js";
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
    parts.push(
      `Your partner (${seatName(partner)}) bid ${partnerBid}; your team must bid at least ${min} together, ` +
        `so your lowest bid is ${lowest}${nil && legal.includes(0) ? " — or bid nil" : ""}.`,
    );
  }
  const highest = legal[legal.length - 1];
  if (highest < 13) {
    parts.push(
      partnerBid === null
        ? `Your highest bid is ${highest}, so that your partner can still bid within the team maximum of ${max}.`
        : `The team may bid at most ${max} together, so your highest bid is ${highest}.`,
    );
  }
  if (!nil) parts.push("Nil bids are not allowed at this table.");
  return parts.join(" ");
}

export function renderBidding(view, { onBid, hintedBid }) {
  const note = bidConstraint(view);
  return h(
    "section.bidding",
    { "aria-labelledby": "bidding-title", "data-testid": "bidding" },
    h("h2.panel-title", { id: "bidding-title" }, "Your bid: how many tricks will you take?"),
    h(
      "div.bid-buttons",
      { role: "group", "aria-label": "Legal bids" },
      view.legal.map((bid) =>
        h(
          "button.bid",
          {
            type: "button",
            class: [bid === 0 ? "bid-nil" : "", bid === hintedBid ? "hinted" : ""].filter(Boolean).join(" "),
            dataset: { bid: String(bid), focusKey: `bid-${bid}` },
            "aria-label": bid === 0 ? "Bid nil (zero tricks)" : `Bid ${bid}`,
            onclick: () => onBid(bid),
          },
          bid === 0 ? "Nil" : String(bid),
        ),
      ),
    ),
    note ? h("p.bid-note", { "data-testid": "bid-note" }, note) : null,
  );
}
