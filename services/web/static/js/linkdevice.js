// "Link another device": a link code made on this signed-in device (POST /v1/players/me/link-codes)
// shown as text (XXXX-XXXX), as its link and as its QR code (an SVG the server made, shown as an
// <img> from a data: URL, never as markup), with a countdown to its expiry and a new code on demand.
// While a code is shown the devices are read again now and then, so the page says when it was used.

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { describeProblem } from "./messages.js";

const WATCH_MS = 5000; // how often the devices are read while a code waits to be used

/** "9:05" for 545 000 ms left, "0:00" once gone (pure). */
export function countdown(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** The QR code's SVG document as an image address, or null for anything that is not one (pure). */
export function qrImage(svg) {
  return typeof svg === "string" && svg.startsWith("<svg ") ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` : null;
}

/**
 * The panel; `token`: this device's credential; `known()`: the ids of the sessions listed now;
 * `onUsed(list)`: a new device signed in (its sessions, read again). Returns {element, stop()}.
 */
export function linkPanel(player, token, { known, onUsed }) {
  let timer = null;
  let watcher = null;
  const body = h("div.link-body", { dataset: { testid: "link-body" } });
  const status = h("p.link-status", { role: "status", dataset: { testid: "link-status" } });
  const stop = () => {
    clearInterval(timer);
    clearInterval(watcher);
    timer = watcher = null;
  };
  const make = async (button) => {
    button.disabled = true;
    status.textContent = "";
    try {
      show(await api.linkCode(token));
    } catch (problem) {
      status.textContent = describeProblem(problem);
    } finally {
      button.disabled = false;
    }
  };
  const newButton = (label, testid, primary = false) => {
    const button = h(`button${primary ? ".primary" : ""}`, { type: "button", dataset: { testid } }, label);
    button.addEventListener("click", () => make(button));
    return button;
  };
  const show = (made) => {
    stop();
    const ends = performance.now() + made.lifetime_ms;
    const address = new URL(made.link, location.href).href;
    const left = h("span.link-left", {}, countdown(made.lifetime_ms));
    const expires = h("p.link-expires", { dataset: { testid: "link-expires" } }, t("account.link.expiresIn"), " ", left);
    const box = h(
      "div.link-box",
      {},
      h("div.link-said", {}, h("p.link-label", {}, t("account.link.code")), h("p.link-code", { dataset: { testid: "link-code" } }, made.code), expires),
      h("img.link-qr", { src: qrImage(made.qr_svg), alt: t("account.link.qr"), width: "176", height: "176", dataset: { testid: "link-qr" } }),
      h(
        "div.link-more",
        {},
        h("label.link-label", { for: "link-address" }, t("account.link.address")),
        h(
          "div.link-address",
          {},
          h("input", { id: "link-address", type: "text", readonly: true, value: address, dataset: { testid: "link-address" }, onfocus: (e) => e.target.select() }),
          h("button.small", { type: "button", dataset: { testid: "link-copy" }, onclick: () => copy(address) }, t("account.link.copy")),
        ),
        newButton(t("account.link.new"), "link-new-code"),
      ),
    );
    body.replaceChildren(box);
    const tick = () => {
      const ms = ends - performance.now();
      left.textContent = countdown(ms);
      if (ms > 0) return;
      stop();
      box.classList.add("expired");
      expires.replaceChildren(t("account.link.expired"));
      expires.dataset.expired = "true";
    };
    timer = setInterval(tick, 1000);
    watcher = setInterval(() => watch(box), WATCH_MS);
  };
  const watch = async (box) => {
    if (document.hidden) return;
    let list;
    try {
      list = await api.sessions(token);
    } catch {
      return; // a refused credential is forgotten by identity.js (the page redraws); the rest waits for the next look
    }
    const before = new Set(known());
    const fresh = list.sessions.find((s) => !before.has(s.id) && !s.current);
    if (!fresh || !box.isConnected) return;
    stop();
    body.replaceChildren(h("p.link-used", { dataset: { testid: "link-used" } }, t("account.link.used", { device: fresh.name })), newButton(t("account.link.another"), "link-show"));
    onUsed(list);
  };
  const copy = async (address) => {
    try {
      await navigator.clipboard.writeText(address);
      status.textContent = t("account.link.copied");
    } catch {
      status.textContent = t("account.link.copyFailed");
    }
  };
  body.append(newButton(t("account.link.show"), "link-show", true));
  const element = h(
    "section.panel.account-link",
    { "aria-labelledby": "link-title", dataset: { testid: "account-link" } },
    h("h2", { id: "link-title" }, t("account.link.title")),
    h("p.help", {}, t("account.link.help", { name: player.name })),
    body,
    status,
  );
  return { element, stop };
}
