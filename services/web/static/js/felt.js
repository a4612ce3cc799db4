// The felt: the four seats around the table (name, who plays it, bid, tricks won, nil alive or
// set, the dealer, whose turn) and the trick in the middle. Pure renders of the view.

import { cardLabel, isJoker, rankLabel, SUITS, suitOf } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { bubble, connectionDot, seatLine } from "./seatextras.js";
import { playerOf, positionOf, seatName } from "./seating.js";

/** A face-up card; a button when `onPlay` is given (see hand.js). */
export function cardFace(code, { extraClass = "", label = null, attrs = null, highDeuce = false } = {}) {
  if (isJoker(code)) return jokerFace(code, { extraClass, label, attrs });
  const suit = SUITS[suitOf(code)];
  const high = highDeuce && code === "2S";
  const classes = `card suit-${suit.name} ${suit.colour}${high ? " high-deuce" : ""} ${extraClass}`.trim();
  const children = [
    h("span.card-rank", { "aria-hidden": "true" }, rankLabel(code)),
    h("span.card-suit", { "aria-hidden": "true" }, suit.symbol),
    h("span.card-pip", { "aria-hidden": "true" }, suit.symbol),
    high ? h("span.card-high", { "aria-hidden": "true", title: t("table.card.highTitle") }, t("table.card.high")) : null,
  ];
  return faceElement(code, classes, children, label || cardLabel(code, { highDeuce }), attrs);
}

/** A joker: a star in the corner and JOKER down the side (what shows of an overlapped card), its
 * size across the top, a big star; the Big Joker's star filled and in colour, the Little's outlined. */
function jokerFace(code, { extraClass, label, attrs }) {
  const big = code === "BJ";
  const star = rankLabel(code);
  const classes = `card joker ${big ? "joker-big red" : "joker-little"} ${extraClass}`.trim();
  const children = [
    h("span.card-rank", { "aria-hidden": "true" }, star),
    h("span.joker-word", { "aria-hidden": "true" }, t("table.joker.word")),
    h("span.joker-size", { "aria-hidden": "true" }, t(big ? "table.joker.bigWord" : "table.joker.littleWord")),
    h("span.card-pip", { "aria-hidden": "true" }, star),
  ];
  return faceElement(code, classes, children, label, attrs);
}

function faceElement(code, classes, children, label, attrs) {
  if (attrs) return h("button", { type: "button", class: classes, ...attrs, dataset: { card: code, ...(attrs.dataset || {}) } }, children);
  return h("span", { class: classes, role: "img", "aria-label": label || cardLabel(code), dataset: { card: code } }, children);
}

function cardBacks(count) {
  return h("span.backs", { "aria-hidden": "true" }, Array.from({ length: Math.min(count, 13) }, () => h("span.card-back")));
}

export function bidText(bid, blind = false) {
  if (bid === null || bid === undefined) return "—";
  if (blind) return bid === 0 ? t("table.bid.blindNil") : t("table.bid.blind", { bid });
  return bid === 0 ? t("table.bid.nil") : t("table.bid.count", { bid });
}

/** "Exchanging cards" on the seats of the nil exchange while it lasts (never which cards); not on
 * your own seat, whose exchange the panel over the felt shows. */
function exchangeChip(view, seat) {
  if (view.phase !== "passing" || !(view.passing_seats || []).includes(seat) || seat === view.you) return null;
  const gave = seat === view.you ? view.passes && view.passes.gave.length > 0 : view.turn !== null && (view.passing_seats || []).indexOf(seat) < (view.passing_seats || []).indexOf(view.turn);
  return h("div.exchange-chip", { dataset: { testid: `exchanging-${seat}` } }, gave ? t("table.seat.cardsChosen") : t("table.seat.exchanging"));
}

/** "Nil alive" / "Nil set" for a nil bidder once the play has started ("Nil made" at the game's end); null otherwise. */
function nilStatus(view, seat) {
  if (view.bids[seat] !== 0 || ["bidding", "passing", "waiting"].includes(view.phase)) return null;
  const alive = view.tricks_won[seat] === 0;
  const said = !alive ? "table.seat.nilSet" : view.phase === "game_over" ? "table.seat.nilMade" : "table.seat.nilAlive";
  return h(`span.nil-chip.${alive ? "alive" : "set"}`, { dataset: { testid: `nil-${seat}` } }, t(said));
}

/** The dealer's badge: a "D" on screen, "dealer" to a screen reader. */
function dealerChip() {
  return h("span.dealer-chip", { title: t("table.seat.dealerTitle") }, h("span", { "aria-hidden": "true" }, t("table.seat.dealerBadge")), h("span.visually-hidden", {}, t("table.seat.dealer")));
}

/** A seat; `people` (seatextras.js) adds its person's dot, clock, away badge and quick message. */
export function seatPanel(view, seat, turn, people = null) {
  const isTurn = turn === seat;
  const mine = seat === view.you;
  const away = people ? people.away(seat) : false;
  const player = view.seats[seat].type === "human" ? playerOf(view, seat) : null;
  return h(
    "div",
    {
      class: `seat seat-${positionOf(view, seat)}${isTurn ? " is-turn" : ""}${mine ? " is-you" : ""}${away ? " is-away" : ""}`,
      role: "group",
      "aria-label": player ? `${seatName(seat)}, ${player.name}` : seatName(seat),
      dataset: { seat: String(seat), testid: `seat-${seat}` },
    },
    h(
      "div.seat-head",
      {},
      h("span.seat-name", {}, connectionDot(people, seat), seatName(seat), mine && !view.notYou ? h("span.seat-you", {}, ` ${t("table.seat.you")}`) : null),
      view.dealer === seat ? dealerChip() : null,
      isTurn ? h("span.turn-chip", {}, t({ bidding: "table.seat.turnBidding", passing: "table.seat.turnPassing" }[view.phase] || "table.seat.turnPlaying")) : null,
    ),
    seatLine(view, seat, people),
    h(
      "div.seat-stats",
      {},
      h("span.seat-bid", { dataset: { testid: `bid-${seat}` } }, bidText(view.bids[seat], Boolean(view.blind && view.blind[seat]))),
      h("span.seat-tricks", { dataset: { testid: `tricks-${seat}` } }, t("table.seat.won", { count: view.tricks_won[seat] })),
      nilStatus(view, seat),
    ),
    exchangeChip(view, seat),
    mine ? null : cardBacks(view.hand_sizes[seat]),
    bubble(people, seat),
  );
}

/** The trick in the middle: the cards played so far, or a finished trick held for a moment. */
export function trickArea(view, shownTrick) {
  const trick = shownTrick || { cards: view.trick, winner: null };
  const bySeat = new Map(trick.cards.map((c) => [c.seat, c.card]));
  const label = trick.winner === null || trick.winner === undefined
    ? t("table.trick.inProgress", { cards: trick.cards.length ? trick.cards.map((c) => `${seatName(c.seat)} ${cardLabel(c.card)}`).join(", ") : t("table.trick.noCard") })
    : t("table.trick.wonBy", { seat: seatName(trick.winner) });
  return h(
    "div.trick",
    { role: "group", "aria-label": label, dataset: { testid: "trick", count: String(trick.cards.length) } },
    [0, 1, 2, 3].map((seat) => {
      const card = bySeat.get(seat);
      const won = trick.winner === seat;
      return h(
        "div",
        { class: `trick-slot slot-${positionOf(view, seat)}${won ? " won" : ""}`, dataset: { seat: String(seat) } },
        card ? cardFace(card, { label: t(won ? "table.trick.playedWinning" : "table.trick.played", { seat: seatName(seat), card: cardLabel(card) }) }) : null,
      );
    }),
    trick.winner !== null && trick.winner !== undefined ? h("div.trick-banner", { "aria-hidden": "true" }, t("table.trick.wins", { seat: seatName(trick.winner) })) : null,
  );
}
