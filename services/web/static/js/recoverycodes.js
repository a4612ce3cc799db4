// "Recovery codes": ten codes (POST /v1/players/me/recovery-codes), each signing one device in once,
// for a person who lost every device. Shown once, in a dialog that says so, with Copy and Download;
// a new set replaces the one before (the server forgets it), so making one again asks first. This
// browser remembers only when it last made a set (never a code), to say so.

import { api } from "./api.js";
import { openDialog } from "./dialog.js";
import { h } from "./dom.js";
import { formatDate, t } from "./i18n.js";
import { describeProblem } from "./messages.js";

const MADE_KEY = "spades.recoveryMade"; // {player id: ISO time of the last set made here}

function madeAt(playerId) {
  try {
    return (JSON.parse(localStorage.getItem(MADE_KEY)) || {})[playerId] || null;
  } catch {
    return null;
  }
}

function rememberMade(playerId, at) {
  let all = {};
  try {
    all = JSON.parse(localStorage.getItem(MADE_KEY)) || {};
  } catch {
    all = {};
  }
  localStorage.setItem(MADE_KEY, JSON.stringify({ ...all, [playerId]: at }));
}

/** The text file of a set (pure but for the language): a title, when, how they work, one code a line. */
export function recoveryFile(name, codes, createdAt) {
  const when = formatDate(createdAt, { dateStyle: "long", timeStyle: "short" });
  return [t("account.recovery.fileTitle", { name }), t("account.recovery.fileMade", { date: when }), "", ...codes.map((c, i) => `${String(i + 1).padStart(2, " ")}. ${c}`), ""].join("\n");
}

/** The dialog that shows a set, once. */
async function showCodes(player, made) {
  const status = h("p.recovery-status", { role: "status", dataset: { testid: "recovery-status" } });
  const text = recoveryFile(player.name, made.codes, made.created_at);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      status.textContent = t("account.recovery.copied");
    } catch {
      status.textContent = t("account.link.copyFailed");
    }
  };
  const file = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
  const content = h(
    "div.recovery-shown",
    {},
    h("h2.panel-title", { id: "recovery-title" }, t("account.recovery.shownTitle")),
    h("p.recovery-warning", { dataset: { testid: "recovery-warning" } }, h("strong", {}, t("account.recovery.once")), " ", t("account.recovery.warning", { name: player.name })),
    h("ol.recovery-codes", { dataset: { testid: "recovery-codes" } }, made.codes.map((code) => h("li", {}, h("code", {}, code)))),
    h(
      "div.form-actions",
      {},
      h("button", { type: "button", dataset: { testid: "recovery-copy" }, onclick: copy }, t("account.recovery.copy")),
      h("a.button", { href: file, download: "spades-recovery-codes.txt", dataset: { testid: "recovery-download" } }, t("account.recovery.download")),
    ),
    status,
  );
  await openDialog(content, { testid: "recovery-dialog", label: t("account.recovery.shownTitle"), buttons: [{ label: t("account.recovery.saved"), value: "saved", primary: true }] });
  URL.revokeObjectURL(file);
}

/** The panel: {element}. */
export function recoveryPanel(player, token) {
  const note = h("p.help.recovery-made", { dataset: { testid: "recovery-made" } });
  const error = h("p.field-error", { role: "alert" });
  const button = h("button.primary", { type: "button", dataset: { testid: "recovery-make" } });
  const draw = () => {
    const at = madeAt(player.id);
    note.textContent = at ? t("account.recovery.made", { date: formatDate(at, { dateStyle: "medium", timeStyle: "short" }) }) : "";
    note.hidden = !at;
    button.textContent = t(at ? "account.recovery.makeAgain" : "account.recovery.make");
  };
  button.addEventListener("click", async () => {
    error.textContent = "";
    if (madeAt(player.id)) {
      const answer = await openDialog(h("p.confirm-text", {}, t("account.recovery.confirmAgain")), {
        testid: "confirm-recovery",
        label: t("account.recovery.makeAgain"),
        buttons: [{ label: t("signin.cancel"), value: "cancel" }, { label: t("account.recovery.makeAgain"), value: "make", primary: true }],
      });
      if (answer !== "make") return;
    }
    button.disabled = true;
    try {
      const made = await api.recoveryCodes(token);
      rememberMade(player.id, made.created_at);
      draw();
      await showCodes(player, made);
    } catch (problem) {
      if (problem.status !== 401) error.textContent = describeProblem(problem);
    } finally {
      button.disabled = false;
    }
  });
  draw();
  const element = h(
    "section.panel.account-recovery",
    { "aria-labelledby": "recovery-title-panel", dataset: { testid: "account-recovery" } },
    h("h2", { id: "recovery-title-panel" }, t("account.recovery.title")),
    h("p.help", {}, t("account.recovery.help", { name: player.name })),
    h("p.help", {}, t("account.recovery.replace")),
    note,
    h("div.form-actions", {}, button),
    error,
  );
  return { element };
}
