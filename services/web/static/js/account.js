// The account page (#/account): the player this browser plays as, on every device. Link another
// device (linkdevice.js), the devices signed in (devices.js), recovery codes (recoverycodes.js); or,
// for a browser without a player, a name to choose or a sign-in. Drawn again whenever the player
// changes (a sign-in, this device signed out here or from another device).

import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { askName, currentPlayer, initials, isSession } from "./identity.js";
import { devicesPanel } from "./devices.js";
import { linkPanel } from "./linkdevice.js";
import { recoveryPanel } from "./recoverycodes.js";
import { followLink, lobbyUrl, navigate, profileUrl } from "./router.js";
import { askSignIn } from "./signin.js";

function crumbs(player) {
  return h(
    "nav.crumbs",
    { "aria-label": t("players.pages") },
    h("a", { href: lobbyUrl(), onclick: followLink }, t("players.lobby")),
    player ? h("a", { href: profileUrl(player.id), onclick: followLink }, t("players.identity.profile")) : null,
  );
}

function signedOut(root) {
  fill(
    root,
    h(
      "div.account-page",
      { dataset: { testid: "account" } },
      crumbs(null),
      h(
        "section.panel.account-head",
        { "aria-labelledby": "account-title" },
        h("span.profile-avatar", { "aria-hidden": "true" }, "?"),
        h(
          "div.account-who",
          {},
          h("h1", { id: "account-title" }, t("account.title")),
          h("p.help", { dataset: { testid: "account-no-player" } }, t("account.noPlayer")),
          h(
            "div.form-actions",
            {},
            h("button.primary", { type: "button", dataset: { testid: "account-sign-in" }, onclick: () => askSignIn() }, t("players.identity.signIn")),
            h("button", { type: "button", dataset: { testid: "account-choose-name" }, onclick: () => askName() }, t("players.name.choose")),
          ),
        ),
      ),
    ),
  );
}

function signedIn(root, player, page) {
  const leave = () => navigate(lobbyUrl());
  const devices = devicesPanel(player, player.token, { left: leave });
  const link = linkPanel(player, player.token, { known: devices.known, onUsed: devices.draw });
  const recovery = recoveryPanel(player, player.token);
  page.parts.push(link);
  const head = h(
    "section.panel.account-head",
    { "aria-labelledby": "account-title" },
    h("span.profile-avatar", { "aria-hidden": "true" }, initials(player.name)),
    h(
      "div.account-who",
      {},
      h("h1", { id: "account-title" }, t("account.title")),
      h("p.account-name", {}, t("account.playsAs"), " ", h("strong", { dataset: { testid: "account-name" } }, player.name)),
      h("p.help", { dataset: { testid: "account-this" } }, t(isSession(player.token) ? "account.thisSession" : "account.thisFirst", { name: player.name })),
    ),
    h("button.small", { type: "button", dataset: { testid: "account-switch" }, onclick: () => askSignIn() }, t("account.switch")),
  );
  fill(
    root,
    h("div.account-page", { dataset: { testid: "account" } }, crumbs(player), head, link.element, devices.element, recovery.element),
  );
}

/** The page; {stop()}. */
export function renderAccount(root) {
  const page = { parts: [], stop: () => {} };
  const stopParts = () => page.parts.splice(0).forEach((part) => part.stop());
  const draw = () => {
    stopParts();
    const player = currentPlayer();
    return player ? signedIn(root, player, page) : signedOut(root);
  };
  const onChange = () => draw();
  document.addEventListener("spades:player", onChange);
  page.stop = () => {
    stopParts();
    document.removeEventListener("spades:player", onChange);
  };
  draw();
  return page;
}
