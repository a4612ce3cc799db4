// "Your devices": every device signed in as this player (GET /v1/players/me/sessions): its name, how it
// signed in, when it was last seen, "This device" for the one asking; sign one out (this one too),
// or every other one. The first device, where the player was made, holds the player token: it is
// no session, so it is listed apart and never signed out from here.

import { api } from "./api.js";
import { openDialog } from "./dialog.js";
import { h } from "./dom.js";
import { has, language, t } from "./i18n.js";
import { forgetPlayer, isSession } from "./identity.js";
import { describeProblem, showMessage } from "./messages.js";
import { deviceOf } from "./signin.js";

const UNITS = [["day", 86_400_000], ["hour", 3_600_000], ["minute", 60_000]];

/** "5 minutes ago", "yesterday" (in the page's language), or null under a minute: the server moves
 * a session's last-seen time at most once a minute (pure but for the language). */
export function seenAgo(at, now = Date.now(), lang = language()) {
  const ago = now - Date.parse(at);
  const [unit, ms] = UNITS.find(([, size]) => ago >= size) || [];
  if (!unit) return null;
  return new Intl.RelativeTimeFormat(lang, { numeric: "auto" }).format(-Math.floor(ago / ms), unit);
}

/** Which picture a device's name calls for: "phone", "tablet" or "computer" (pure). */
export function deviceShape(name) {
  const { system } = deviceOf(name);
  if (system === "Android" || system === "iPhone") return "phone";
  return system === "iPad" ? "tablet" : "computer";
}

const via = (how) => t(has(`account.devices.via.${how}`) ? `account.devices.via.${how}` : "account.devices.via.other");

/** Ask first; resolves true on "Sign out". */
async function confirmed(text) {
  const answer = await openDialog(h("p.confirm-text", {}, text), {
    testid: "confirm-signout",
    label: t("account.devices.signOut"),
    buttons: [{ label: t("signin.cancel"), value: "cancel" }, { label: t("account.devices.signOut"), value: "signout", primary: true }],
  });
  return answer === "signout";
}

/** The panel: {element, draw(list), refresh(), known()}; `left()`: this device signed itself out. */
export function devicesPanel(player, token, { left }) {
  let ids = [];
  const list = h("ul.device-list", { dataset: { testid: "devices" } });
  const others = h("button", { type: "button", hidden: true, dataset: { testid: "devices-sign-out-others" } }, t("account.devices.others"));
  const refresh = async () => {
    try {
      draw(await api.sessions(token));
    } catch (problem) {
      if (problem.status !== 401) list.replaceChildren(h("li.device-note", {}, t("account.devices.failed", { why: describeProblem(problem) })));
    }
  };
  /** Confirmed, then called: true when it was done (a refused credential is forgotten by identity.js). */
  const act = async (text, call, done) => {
    if (!(await confirmed(text))) return false;
    try {
      await call();
      if (done) showMessage(done, "info");
      return true;
    } catch (problem) {
      if (problem.status !== 401) showMessage(describeProblem(problem));
      return false;
    }
  };
  const signOut = async (session) => {
    const revoke = () => api.revokeSession(token, session.id);
    if (!session.current) {
      await act(t("account.devices.confirmOne", { name: session.name }), revoke, t("account.devices.signedOutOne", { name: session.name }));
      return refresh();
    }
    if (await act(t("account.devices.confirmThis", { name: player.name }), revoke, null)) {
      forgetPlayer();
      left(); // to the lobby, which says so
      showMessage(t("account.devices.signedOutThis"), "info");
    }
    return undefined;
  };
  const row = ({ name, detail, current, shape, session }) =>
    h(
      "li.device",
      { dataset: { testid: session ? `device-${session.id}` : "device-first", current: current ? "true" : "false" } },
      h("span.device-icon", { "aria-hidden": "true", dataset: { shape } }),
      h("span.device-name", {}, h("strong", {}, name), current ? h("span.device-this", {}, t("account.devices.thisDevice")) : null),
      h("span.device-detail", {}, detail),
      session
        ? h("button.small.device-sign-out", {
            type: "button", dataset: { testid: session.current ? "device-sign-out-this" : "device-sign-out" },
            "aria-label": session.current ? t("account.devices.signOutThis") : t("account.devices.signOutLabel", { name: session.name }),
            onclick: () => signOut(session),
          }, t("account.devices.signOut"))
        : null,
    );
  const draw = ({ sessions }) => {
    ids = sessions.map((s) => s.id);
    const rows = sessions.map((s) => {
      const seen = s.current ? t("account.devices.seenNow") : seenAgo(s.last_seen_at);
      const detail = `${via(s.via)} · ${seen ? t("account.devices.seen", { when: seen }) : t("account.devices.seenNow")}`;
      return row({ name: s.name, detail, current: s.current, shape: deviceShape(s.name), session: s });
    });
    if (!isSession(token)) {
      rows.unshift(row({ name: t("account.devices.first"), detail: t("account.devices.firstDetail", { name: player.name }), current: true, shape: "computer" }));
    }
    if (!sessions.some((s) => !s.current)) rows.push(h("li.device-note", { dataset: { testid: "devices-none" } }, t("account.devices.none")));
    list.replaceChildren(...rows);
    others.hidden = !sessions.some((s) => !s.current);
  };
  others.addEventListener("click", () =>
    act(t("account.devices.confirmOthers", { name: player.name }), () => api.revokeOtherSessions(token).then(draw), t("account.devices.signedOutOthers")),
  );
  const element = h(
    "section.panel.account-devices",
    { "aria-labelledby": "devices-title", dataset: { testid: "account-devices" } },
    h("h2", { id: "devices-title" }, t("account.devices.title")),
    h("p.help", {}, t("account.devices.help", { name: player.name })),
    list,
    h("div.form-actions", {}, others),
  );
  refresh();
  return { element, draw, refresh, known: () => ids };
}
