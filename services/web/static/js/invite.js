// The page an invite link opens (/play?game=<id>&seat=<n>): the table's seats, and the seat to take
// (POST …/seats/{n}/claim) or "Watch instead".

import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { describeProblem, showProblem } from "./messages.js";
import { gameUrl, lobbyUrl, navigate } from "./router.js";
import { withPlayer } from "./identity.js";
import { keepSeat } from "./seats.js";
import { seatKind, seatName } from "./seating.js";

/** The page an invite link opens: take the seat, or watch. */
export async function renderInvite(root, gameId, seat) {
  let view;
  try {
    view = await api.getGame(gameId, null);
  } catch (problem) {
    fill(root, h("section.panel", {}, h("h1", {}, "Can't open this invite"), h("p", {}, describeProblem(problem)), h("a.button", { href: lobbyUrl() }, "Back to the lobby")));
    return;
  }
  const info = view.seats[seat];
  const claimable = info && info.claimable && view.phase !== "game_over";
  const kind = view.rules.scoring === "partnership" ? "Partnership" : "Individual";
  fill(
    root,
    h(
      "section.panel.invite-page",
      { "data-testid": "invite-page" },
      h("h1", {}, claimable ? `You're invited to sit ${seatName(seat)}` : `${seatName(seat)} is taken`),
      h("p", {}, `${kind} Spades, playing to ${view.rules.win_score}.`),
      h("ul.invite-seats", {}, [0, 1, 2, 3].map((s) => h("li", {}, `${seatName(s)}: ${seatKind({ ...view, you: null }, s)}`))),
      h(
        "div.form-actions",
        {},
        claimable
          ? h("button.primary", { type: "button", dataset: { testid: "claim" }, onclick: (e) => claim(e.currentTarget, gameId, seat) }, `Take the ${seatName(seat)} seat`)
          : h("p", {}, "Someone has already taken that seat."),
        h("a.button", { href: gameUrl(gameId), dataset: { testid: "watch" } }, "Watch instead"),
      ),
    ),
  );
}

async function claim(button, gameId, seat) {
  button.disabled = true;
  try {
    const claimed = await withPlayer((playerToken) => api.claimSeat(gameId, seat, playerToken));
    keepSeat(gameId, claimed.seat, claimed.token);
    navigate(gameUrl(gameId));
  } catch (problem) {
    showProblem(problem);
    button.disabled = false;
  }
}
