// The page an invite link opens (/play?game=<id>&seat=<n>): the table's seats, and the seat to take
// (POST …/seats/{n}/claim) or "Watch instead"; an invite to your own seat offers "Take my seat here"
// (seatfollow.js), saying whether another device of yours is at the table (the seat's `connected`) or none is
// (closed, or its sign-in ended and the seat was released).

import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { describeProblem, showProblem } from "./messages.js";
import { gameUrl, lobbyUrl, navigate } from "./router.js";
import { withPlayer } from "./identity.js";
import { keepSeat } from "./seats.js";
import { seatKind, seatName } from "./seating.js";
import { inviteLeadKey, playersSeat, takeSeatHere } from "./seatfollow.js";

/** The page an invite link opens: take the seat, or watch. */
export async function renderInvite(root, gameId, seat) {
  let view;
  try {
    view = await api.getGame(gameId, null);
  } catch (problem) {
    fill(root, h("section.panel", {}, h("h1", {}, t("lobby.invitePage.cant")), h("p", {}, describeProblem(problem)), h("a.button", { href: lobbyUrl() }, t("lobby.back"))));
    return;
  }
  const info = view.seats[seat];
  const claimable = info && info.claimable && view.phase !== "game_over";
  const mine = !claimable && playersSeat(view) === seat; // your player's, played on another device
  const kind = view.rules.scoring === "partnership" ? "partnership" : "individual";
  const title = mine ? "seat.take.inviteTitle" : claimable ? "lobby.invitePage.invited" : "lobby.invitePage.taken";
  fill(
    root,
    h(
      "section.panel.invite-page",
      { "data-testid": "invite-page" },
      h("h1", {}, t(title, { seat: seatName(seat) })),
      mine ? h("p.lead", { dataset: { testid: "invite-lead" } }, t(inviteLeadKey(info))) : null,
      h("p", {}, t(`lobby.invitePage.${kind}`, { score: view.rules.win_score })),
      h("ul.invite-seats", {}, [0, 1, 2, 3].map((s) => h("li", {}, t("lobby.invitePage.seat", { seat: seatName(s), who: seatKind({ ...view, you: null }, s) })))),
      h(
        "div.form-actions",
        {},
        mine
          ? h("button.primary", { type: "button", dataset: { testid: "take-seat" }, onclick: (e) => take(e.currentTarget, gameId, seat) }, t("seat.take.here"))
          : claimable
          ? h("button.primary", { type: "button", dataset: { testid: "claim" }, onclick: (e) => claim(e.currentTarget, gameId, seat) }, t("lobby.invitePage.take", { seat: seatName(seat) }))
          : h("p", {}, t("problem.seat_taken")),
        h("a.button", { href: gameUrl(gameId), dataset: { testid: "watch" } }, t("lobby.invitePage.watch")),
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

async function take(button, gameId, seat) {
  button.disabled = true;
  try {
    await takeSeatHere(gameId, seat);
    navigate(gameUrl(gameId));
  } catch (problem) {
    showProblem(problem);
    button.disabled = false;
  }
}
