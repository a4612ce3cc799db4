// The "Set up a table" form: who sits where (you, a friend by invite link, a computer of a chosen
// level), hints, and every rule folded under "House rules" with the preset's defaults. Errors are
// shown beside their field in plain words (checked here first; the server's field errors mapped to
// the same places), and cleared when the game is created.

import { h } from "./dom.js";
import { SEAT_NAMES } from "./seating.js";
import { applyVariants, isVariant, readVariants, VARIANT_NUMBERS, VARIANT_OPTIONS, VARIANTS, variantsFieldset } from "./variants.js";

// The presets' names in the form (GET /v1/rules gives each a description too); an unknown one shows its id.
export const PRESET_NAMES = {
  partnership: "Partnership (South & North against West & East)",
  individual: "Individual (everyone for themselves)",
  jokers_deuces_high: "Jokers and deuces high",
  blind_nil_passing: "Blind nil with nil passing",
  suicide_partners: "Suicide (one partner bids nil)",
  house: "House: jokers, blind nil, passing, 10 for 200, mercy",
};

// Each number's range: the engine's OPTION_RANGES (tests/web/test_serving.py keeps them equal).
const NUMBERS = {
  win_score: { label: "Winning score", min: 1, max: 100000, required: true },
  lose_score: { label: "Losing score", min: -100000, max: 0, required: false, help: "A side at or below it loses; leave it empty for none." },
  bag_limit: { label: "Bags before a penalty", min: 1, max: 1000, required: true },
  bag_penalty: { label: "Points lost at that many bags", min: 0, max: 100000, required: true, help: "0 turns the bag penalty off." },
  nil_value: { label: "Points for nil", min: 0, max: 100000, required: true, help: "Won if the nil bidder takes no trick, lost otherwise." },
  min_team_bid: { label: "Minimum team bid", min: 0, max: 13, required: true, help: "Partners together (unless one bids nil)." },
  max_team_bid: { label: "Maximum team bid", min: 1, max: 26, required: true, help: "Partners together." },
};
const TEAM_ONLY = new Set(["min_team_bid", "max_team_bid"]); // partnership rules
const CHECKS = {
  nil: "Nil bids allowed",
  nil_tricks_count_for_team: "A nil bidder's tricks count for its side",
  spades_must_be_broken: "Spades can't be led until broken",
};

/** A preset's name in the form's words (an unknown one: its id in words). */
export function presetName(name) {
  return PRESET_NAMES[name] || name.replaceAll("_", " ");
}

export function field(id, label, input, help = "") {
  input.setAttribute("aria-describedby", [help ? `${id}-help` : "", `${id}-error`].filter(Boolean).join(" "));
  return h(
    "div.field",
    { dataset: { field: id } },
    h("label", { for: id }, label),
    input,
    help ? h("small.help", { id: `${id}-help` }, help) : null,
    h("small.field-error", { id: `${id}-error`, dataset: { testid: `error-${id}` } }),
  );
}

/** The rule boxes and tick boxes the form offers (tests compare them with the engine's options). */
export const RULE_FIELDS = {
  numbers: NUMBERS,
  checks: CHECKS,
  choices: ["preset", "set_penalty"],
  variants: VARIANT_OPTIONS,
  variantNumbers: {
    ...VARIANT_NUMBERS,
    ...Object.fromEntries(Object.values(VARIANTS).filter((v) => v.value).map((v) => [v.value.id, v.value])),
  },
};

function numberField(id) {
  const spec = NUMBERS[id];
  const input = h("input", { id, name: id, type: "text", inputmode: "numeric", autocomplete: "off", dataset: { testid: id } });
  return field(id, spec.label, input, spec.help || "");
}

function check(id, label, checked) {
  return h("div.field.check", { dataset: { field: id } }, h("input", { id, type: "checkbox", checked }), h("label", { for: id }, label));
}

/** A seat's choice: you, an open seat, or a computer of each level, weakest first. */
function seatSelect(seat, catalogue) {
  const choice = seat === 0 ? "you" : `ai:${catalogue.default_level || (catalogue.levels[0] || {}).name}`;
  const options = [
    ["you", "You"],
    ["open", "A friend (invite link)"],
    ...[...catalogue.levels].sort((a, b) => (a.strength ?? 0) - (b.strength ?? 0)).map((l) => [`ai:${l.name}`, `Computer — ${l.name}`]),
  ];
  return h(
    "select",
    { id: `seat-${seat}`, name: `seat-${seat}`, dataset: { testid: `seat-select-${seat}` } },
    options.map(([value, label]) => h("option", { value, selected: value === choice }, label)),
  );
}

export function newGameForm(levels, { onSubmit }) {
  const form = h(
    "form.lobby-form",
    { "aria-labelledby": "new-game-title", novalidate: true, dataset: { testid: "new-game-form" } },
    h("h2", { id: "new-game-title" }, "Set up a table"),
    h("p.help", {}, "Play goes South → West → North → East. Choose “You” for at most one seat; without it you watch."),
    [0, 1, 2, 3].map((seat) => field(`seat-${seat}`, SEAT_NAMES[seat], seatSelect(seat, levels))),
    check("hints", "Hints: a button that suggests a move", true),
    h(
      "details.house-rules",
      { dataset: { testid: "house-rules" } },
      h("summary", {}, "House rules ", h("span.rules-summary", { id: "rules-summary" }, "")),
      field(
        "preset",
        "Rules",
        h("select", { id: "preset", dataset: { testid: "preset" } }, ["partnership", "individual"].map((name) => h("option", { value: name }, PRESET_NAMES[name]))),
        " ",
      ),
      numberField("win_score"),
      numberField("lose_score"),
      field("set_penalty", "A failed bid scores", h("select", { id: "set_penalty" }, h("option", { value: "negative" }, "minus 10 per trick bid"), h("option", { value: "zero" }, "zero"))),
      numberField("bag_limit"),
      numberField("bag_penalty"),
      numberField("nil_value"),
      numberField("min_team_bid"),
      numberField("max_team_bid"),
      Object.entries(CHECKS).map(([id, label]) => check(id, label, true)),
      variantsFieldset(),
    ),
    h("div.form-actions", {}, h("button.primary", { type: "submit", dataset: { testid: "create" } }, "Create game"), h("small.field-error", { id: "form-error", role: "alert", dataset: { testid: "form-error" } })),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    onSubmit(form);
  });
  form.addEventListener("input", (event) => clearError(form, event.target.id));
  return form;
}

/** Fill the rule fields from a preset of GET /v1/rules. */
export function applyPreset(form, catalogue) {
  if (!catalogue) return;
  const select = form.querySelector("#preset");
  if (select.options.length !== Object.keys(catalogue.presets).length) {
    const chosen = select.value;
    select.replaceChildren(...Object.keys(catalogue.presets).map((name) => h("option", { value: name, selected: name === chosen }, PRESET_NAMES[name] || name.replaceAll("_", " "))));
  }
  const rules = catalogue.presets[select.value];
  form.dataset.scoring = rules.scoring;
  form.querySelector("#preset-help").textContent = (catalogue.preset_descriptions || {})[select.value] || "";
  for (const name of Object.keys(NUMBERS)) {
    const value = rules[name];
    form.querySelector(`#${name}`).value = value === null || value === undefined ? "" : String(value);
    clearError(form, name);
  }
  form.querySelector("#set_penalty").value = rules.set_penalty;
  for (const name of Object.keys(CHECKS)) form.querySelector(`#${name}`).checked = rules[name];
  for (const name of TEAM_ONLY) form.querySelector(`[data-field=${name}]`).hidden = rules.scoring !== "partnership";
  applyVariants(form, rules);
  clearErrors(form);
  const kind = rules.scoring === "partnership" ? "partnership" : "individual";
  const named = select.value === kind ? "" : `${select.options[select.selectedIndex].textContent.split(":")[0].toLowerCase()}, `;
  form.querySelector("#rules-summary").textContent = `(${named}${kind}, to ${rules.win_score})`;
}

export function showError(form, id, text) {
  const input = form.querySelector(`#${id}`);
  const slot = form.querySelector(`#${id}-error`) || form.querySelector("#form-error");
  slot.textContent = text;
  if (input && slot.id !== "form-error") {
    input.setAttribute("aria-invalid", "true");
    const details = input.closest("details");
    if (details) details.open = true;
  }
}

export function clearError(form, id) {
  const slot = id && form.querySelector(`#${CSS.escape(id)}-error`);
  if (slot) slot.textContent = "";
  const input = id && form.querySelector(`#${CSS.escape(id)}`);
  if (input) input.removeAttribute("aria-invalid");
}

export function clearErrors(form) {
  for (const slot of form.querySelectorAll(".field-error")) slot.textContent = "";
  for (const input of form.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
}

/** The form read and checked: {spec, you, errors: [{id, text}]}. Empty boxes are never sent as 0. */
export function readForm(form) {
  const value = (id) => form.querySelector(`#${id}`).value.trim();
  const errors = [];
  const partnership = (form.dataset.scoring || value("preset")) === "partnership";
  const rules = { preset: value("preset"), set_penalty: value("set_penalty") };
  for (const [id, spec] of Object.entries(NUMBERS)) {
    if (TEAM_ONLY.has(id) && !partnership) continue;
    const text = value(id);
    if (text === "") {
      if (spec.required) errors.push({ id, text: `Enter the ${spec.label.toLowerCase()}: a whole number from ${spec.min} to ${spec.max}.` });
      else rules[id] = null;
      continue;
    }
    const number = Number(text.replace(/[\s,]/g, "").replace("−", "-"));
    if (!Number.isInteger(number) || number < spec.min || number > spec.max) {
      errors.push({ id, text: `${spec.label} must be a whole number from ${spec.min} to ${spec.max}.` });
    } else {
      rules[id] = number;
    }
  }
  for (const id of Object.keys(CHECKS)) rules[id] = form.querySelector(`#${id}`).checked;
  readVariants(form, rules, errors);
  const choices = [0, 1, 2, 3].map((s) => value(`seat-${s}`));
  if (choices.filter((c) => c === "you").length > 1) {
    errors.push({ id: `seat-${choices.lastIndexOf("you")}`, text: "Only one seat can be “You”: friends join with an invite link." });
  }
  const seats = choices.map((c) => (c === "you" ? { type: "human" } : c === "open" ? { type: "open" } : { type: "ai", level: c.slice(3) }));
  return { spec: { rules, seats }, you: choices.indexOf("you"), hints: form.querySelector("#hints").checked, errors };
}

/** Where a server's field error belongs (its `field`, e.g. "rules.win_score", "seats.2.level"). */
export function fieldOf(name) {
  const rule = /^rules\.(\w+)$/.exec(name);
  if (rule && NUMBERS[rule[1]]) return rule[1];
  if (rule && rule[1] === "set_penalty") return "set_penalty";
  if (rule && isVariant(rule[1])) return rule[1] === "mercy_margin" ? "mercy" : rule[1];
  if (rule && ["scoring", "nil", "max_team_bid", "min_team_bid"].includes(rule[1])) return rule[1] === "scoring" ? "preset" : rule[1];
  const seat = /^seats\.(\d)/.exec(name);
  if (seat) return `seat-${seat[1]}`;
  return null;
}

/** A rule control's name in words ("Suicide", "Rules" for the preset's scoring). */
export function optionLabel(id) {
  if (id === "preset") return "Scoring";
  if (id === "nil_pass_blind_only") return "Passing only after a blind nil";
  const variant = VARIANTS[id] || Object.values(VARIANTS).find((v) => v.value && v.value.id === id);
  if (variant) return variant.value && variant.value.id === id ? variant.value.label : variant.label;
  return (NUMBERS[id] || VARIANT_NUMBERS[id] || {}).label || CHECKS[id] || id.replaceAll("_", " ");
}

/** A server's error message in plain words for a field the form knows. */
export function plainError(id, message) {
  const spec = NUMBERS[id];
  if (spec && /greater|less|between|integer|number/i.test(message)) return `${spec.label} must be a whole number from ${spec.min} to ${spec.max}.`;
  const label = spec ? spec.label : id.startsWith("seat-") ? "This seat" : "This rule";
  return `${label}: ${message.replace(/^./, (c) => c.toLowerCase())}`;
}
