// Modal dialogs (<dialog>: focus is trapped and restored by the browser; Escape closes).

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** Show `content` modally; resolves with the value of the button that closed it ("" on Escape). */
export function openDialog(content, { buttons = null, testid = "dialog", label = "", wide = false } = {}) {
  buttons ??= [{ label: t("table.dialog.close"), value: "close", primary: true }];
  const dialog = h(
    "dialog.modal",
    { "aria-label": label || null, class: wide ? "wide" : "", dataset: { testid } },
    h("div.modal-body", { tabindex: "0" }, content), // focusable: a long body scrolls with the keyboard too
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
  dialog.querySelector(".modal-body").scrollTop = 0;
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(dialog.returnValue);
    });
  });
}
