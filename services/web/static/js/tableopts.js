// "Set up a table"'s choices for a table with people: list it among the open tables
// (`options.public`) and its turn clock (`options.clock`). Each is sent only when chosen, so the
// server's own default (a clock when two or more seats are people) applies otherwise.

import { controlWords, timeControls } from "./clock.js";
import { h } from "./dom.js";

function clockOptions(catalogue) {
  const named = timeControls(catalogue).map((c) => [c.name, `${c.name[0].toUpperCase()}${c.name.slice(1)} — ${controlWords(c)}`]);
  return [["", "The usual (a clock when people play)"], ["none", "No clock"], ...named];
}

export function tableOptionsFields() {
  return h(
    "div.table-options",
    { dataset: { testid: "table-options" } },
    h(
      "div.field.check",
      {},
      h("input", { id: "public", type: "checkbox", dataset: { testid: "public" }, "aria-describedby": "public-help" }),
      h("label", { for: "public" }, "Make my table public"),
      h("small.help", { id: "public-help" }, "Its open seats are listed under “Play people” for anyone to take."),
    ),
    h(
      "div.field",
      { dataset: { field: "clock" } },
      h("label", { for: "clock" }, "Turn clock"),
      h("select", { id: "clock", dataset: { testid: "clock" } }, clockOptions(null).map(([v, t]) => h("option", { value: v }, t))),
    ),
  );
}

/** The server's time controls once GET /v1/rules has answered. */
export function applyTableOptions(form, catalogue) {
  const select = form.querySelector("#clock");
  const chosen = select.value;
  select.replaceChildren(...clockOptions(catalogue).map(([v, t]) => h("option", { value: v, selected: v === chosen }, t)));
}

/** {public: true} and {clock} when chosen; nothing otherwise. */
export function readTableOptions(form) {
  const options = {};
  if (form.querySelector("#public").checked) options.public = true;
  const clock = form.querySelector("#clock").value;
  if (clock) options.clock = clock;
  return options;
}
