// The quick messages' picker: the fixed codes as buttons in a small dialog (no free text, so nothing
// to moderate); the chosen code, or "" when closed without one.

import { openDialog } from "./dialog.js";
import { h } from "./dom.js";
import { messageText } from "./news.js";

export async function pickMessage(codes) {
  let chosen = "";
  const grid = h(
    "div.quick-messages",
    { role: "group", "aria-label": "Quick messages" },
    codes.map((code) =>
      h("button.quick-message", { type: "button", dataset: { testid: `say-${code}`, code }, onclick: (e) => {
        chosen = code;
        e.currentTarget.closest("dialog").close("say");
      } }, messageText(code)),
    ),
  );
  await openDialog(h("div", {}, h("h2.panel-title", {}, "Say to the table"), grid), {
    testid: "say",
    label: "Say to the table",
    buttons: [{ label: "Close", value: "close" }],
  });
  return chosen;
}
