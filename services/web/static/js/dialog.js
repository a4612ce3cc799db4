// Modal dialogs (<dialog>: focus is trapped and restored by the browser; Escape closes).

import { h } from "./dom.js";

/** Show `content` modally; resolves with the value of the button that closed it ("" on Escape). */
export function openDialog(content, { buttons = [{ label: "Close", value: "close", primary: true }], testid = "dialog", label = "" } = {}) {
  const dialog = h(
    "dialog.modal",
    { "aria-label": label || null, dataset: { testid } },
    h("div.modal-body", {}, content),
    h(
      "div.modal-buttons",
      {},
      buttons.map((b) =>
        h(`button${b.primary ? ".primary" : ""}`, {
          type: "button",
          dataset: { value: b.value, testid: `${testid}-${b.value}` },
          onclick: () => dialog.close(b.value),
        }, b.label),
      ),
    ),
  );
  document.body.append(dialog);
  dialog.showModal();
  const primary = dialog.querySelector(".modal-buttons .primary");
  if (primary) primary.focus();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(dialog.returnValue);
    });
  });
}
