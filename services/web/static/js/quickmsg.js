// The quick messages' picker: the fixed codes as buttons in a small dialog (no free text, so nothing
// to moderate); the chosen code, or "" when closed without one.

import { openDialog } from "./dialog.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { messageText } from "./news.js";

export async function pickMessage(codes) {
  let chosen = "";
  const grid = h(
    "div.quick-messages",
    { role: "group", "aria-label": t("table.people.quickMessages") },
    codes.map((code) =>
      h("button.quick-message", { type: "button", dataset: { testid: `say-${code}`, code }, onclick: (e) => {
        chosen = code;
        e.currentTarget.closest("dialog").close("say");
      } }, messageText(code)),
    ),
  );
  await openDialog(h("div", {}, h("h2.panel-title", {}, t("table.people.sayTitle")), grid), {
    testid: "say",
    label: t("table.people.sayTitle"),
    buttons: [{ label: t("app.close"), value: "close" }],
  });
  return chosen;
}
