// Taking your seat to another device: a private rejoin link (and code) made with the seat's token and
// shown only here, in this seat's dialog; never stored, never in the table's view. The link is
// /play#rejoin=<game>.<code> (a fragment: it never reaches a server log); opening it, or typing the
// code in the lobby, redeems it for a new token for the seat, and the old device's token stops working.

import { api } from "./api.js";
import { openDialog } from "./dialog.js";
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { describeProblem } from "./messages.js";
import { gameUrl } from "./router.js";
import { keepSeat } from "./seats.js";
import { seatName } from "./seating.js";

const FRAGMENT = /^#rejoin=([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{1,40})$/;
const TYPED = /^([A-Za-z0-9_-]{1,64})\s*\.\s*([A-Za-z0-9_ -]{1,40})$/;

/** {gameId, code} from a rejoin link, its fragment, or a typed "<game>.<code>" (the code's spaces dropped); null otherwise. */
export function parseRejoin(text) {
  const trimmed = String(text || "").trim();
  const hash = trimmed.includes("#") ? trimmed.slice(trimmed.indexOf("#")) : null;
  const match = (hash && FRAGMENT.exec(hash)) || TYPED.exec(trimmed);
  const code = match ? match[2].replaceAll(" ", "") : "";
  return code ? { gameId: match[1], code } : null;
}

export function rejoinLink(gameId, code) {
  return `${location.origin}/play#rejoin=${gameId}.${code}`;
}

/** Redeem a rejoin code: the seat's new token kept in this browser; the game's address to go to. */
export async function redeemRejoin({ gameId, code }) {
  const seat = await api.rejoin(gameId, code);
  keepSeat(gameId, seat.seat, seat.token);
  return gameUrl(gameId);
}

/** The seat's dialog: make a rejoin link, copy it, make a new one or stop it. */
export async function showRejoin(gameId, seat, token, onCopy) {
  const body = h("div.rejoin-body", { "aria-live": "polite" });
  const lead = h(
    "p",
    {},
    t("lobby.rejoin.lead", { seat: seatName(seat) }),
  );
  const show = (result) => {
    const code = result.code;
    const link = rejoinLink(gameId, code);
    fill(
      body,
      h("label", { for: "rejoin-link" }, t("lobby.rejoin.link")),
      h("div.rejoin-row", {}, h("input", { id: "rejoin-link", type: "text", readonly: true, value: link, dataset: { testid: "rejoin-link" } }), h("button", { type: "button", onclick: () => onCopy(link) }, t("lobby.rejoin.copy"))),
      h("p.rejoin-code", {}, t("lobby.rejoin.code"), " ", h("strong", { dataset: { testid: "rejoin-code" } }, `${gameId}.${code}`)),
      h(
        "div.form-actions",
        {},
        h("button", { type: "button", onclick: () => make(), dataset: { testid: "rejoin-new" } }, t("lobby.rejoin.new")),
        h("button", { type: "button", onclick: () => revoke(), dataset: { testid: "rejoin-revoke" } }, t("lobby.rejoin.stop")),
      ),
    );
  };
  const failed = (problem) => fill(body, h("p.error-note", {}, describeProblem(problem)), offer());
  const offer = () => h("button.primary", { type: "button", onclick: () => make(), dataset: { testid: "rejoin-make" } }, t("lobby.rejoin.make"));
  const make = () => api.rejoinCode(gameId, seat, token).then(show, failed);
  const revoke = () =>
    api.revokeRejoinCode(gameId, seat, token).then(() => fill(body, h("p", { dataset: { testid: "rejoin-stopped" } }, t("lobby.rejoin.stopped")), offer()), failed);
  fill(body, offer());
  await openDialog(h("div", {}, h("h2.panel-title", {}, t("lobby.rejoin.title")), lead, body), {
    testid: "rejoin",
    label: t("lobby.rejoin.title"),
    buttons: [{ label: t("app.close"), value: "close", primary: true }],
  });
}
