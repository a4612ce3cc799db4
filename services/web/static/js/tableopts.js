// "Set up a table"'s choices for a table with people: list it among the open tables
// (`options.public`) and its turn clock (`options.clock`). Each is sent only when chosen, so the
// server's own default (a clock when two or more seats are people) applies otherwise.

import { timeControls } from "./clock.js";
import { h } from "./dom.js";
import { has, t } from "./i18n.js";

/** A time control's name ("Fast"; one the catalogue lacks: its code). */
export function clockName(name) {
  return has(`lobby.clock.${name}`) ? t(`lobby.clock.${name}`) : String(name).replaceAll("_", " ");
}

/** A span of seconds: "10 s", "2 min", "24 h". */
function span(seconds) {
  if (seconds >= 3600) return t("lobby.clock.hours", { n: Math.round(seconds / 3600) });
  if (seconds >= 120) return t("lobby.clock.minutes", { n: Math.round(seconds / 60) });
  return t("lobby.clock.seconds", { n: seconds });
}

/** A time control in words: "10 s a move + 30 s reserve". */
export function clockWords(control) {
  const move = span(control.move_seconds);
  return control.reserve_seconds ? t("lobby.clock.moveReserve", { move, reserve: span(control.reserve_seconds) }) : t("lobby.clock.move", { move });
}

function clockOptions(catalogue) {
  const named = timeControls(catalogue).map((c) => [c.name, t("lobby.clock.option", { name: clockName(c.name), words: clockWords(c) })]);
  return [["", t("lobby.clock.usual")], ["none", t("lobby.clock.none")], ...named];
}

export function tableOptionsFields() {
  return h(
    "div.table-options",
    { dataset: { testid: "table-options" } },
    h(
      "div.field.check",
      {},
      h("input", { id: "public", type: "checkbox", dataset: { testid: "public" }, "aria-describedby": "public-help" }),
      h("label", { for: "public" }, t("lobby.setUp.public")),
      h("small.help", { id: "public-help" }, t("lobby.setUp.publicHelp")),
    ),
    h(
      "div.field",
      { dataset: { field: "clock" } },
      h("label", { for: "clock" }, t("lobby.setUp.clock")),
      h("select", { id: "clock", dataset: { testid: "clock" } }, clockOptions(null).map(([v, text]) => h("option", { value: v }, text))),
    ),
  );
}

/** The server's time controls once GET /v1/rules has answered. */
export function applyTableOptions(form, catalogue) {
  const select = form.querySelector("#clock");
  const chosen = select.value;
  select.replaceChildren(...clockOptions(catalogue).map(([v, text]) => h("option", { value: v, selected: v === chosen }, text)));
}

/** {public: true} and {clock} when chosen; nothing otherwise. */
export function readTableOptions(form) {
  const options = {};
  if (form.querySelector("#public").checked) options.public = true;
  const clock = form.querySelector("#clock").value;
  if (clock) options.clock = clock;
  return options;
}
