// The "Set up a table" form: who sits where (you, a friend by invite link, a computer of a chosen
// level), hints, and every rule folded under "House rules" with the preset's defaults. Errors are
// shown beside their field in plain words (checked here first; the server's field errors mapped to
// the same places), and cleared when the game is created.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { byStrength, levelTitle } from "./levels.js";
import { presetAbout, presetName, presetShort, ruleAbout, ruleName } from "./rulewords.js";
import { seatName } from "./seating.js";
import { addListedVariants, applyVariants, isVariant, readVariants, VARIANT_NUMBERS, VARIANT_OPTIONS, VARIANTS, variantsFieldset } from "./variants.js";

export { presetName };

// Each number's range: the engine's OPTION_RANGES (tests/web/test_serving.py keeps them equal). Every
// option's name and line are the catalogues' (`lobby.rule.<option>`, `….about`: rulewords.js).
const NUMBERS = {
  win_score: { min: 1, max: 100000, required: true },
  lose_score: { min: -100000, max: 0, required: false },
  bag_limit: { min: 1, max: 1000, required: true },
  bag_penalty: { min: 0, max: 100000, required: true },
  nil_value: { min: 0, max: 100000, required: true },
  min_team_bid: { min: 0, max: 13, required: true },
  max_team_bid: { min: 1, max: 26, required: true },
};
const TEAM_ONLY = new Set(["min_team_bid", "max_team_bid"]); // partnership rules
const CHECKS = ["nil", "nil_tricks_count_for_team", "spades_must_be_broken"];

/** "Winning score must be a whole number from 1 to 100,000." */
export function rangeError(label, spec) {
  return t("lobby.form.range", { label, min: spec.min, max: spec.max });
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
  checks: Object.fromEntries(CHECKS.map((id) => [id, true])),
  choices: ["preset", "set_penalty"],
  variants: VARIANT_OPTIONS,
  variantNumbers: {
    ...VARIANT_NUMBERS,
    ...Object.fromEntries(Object.values(VARIANTS).filter((v) => v.value).map((v) => [v.value.id, v.value])),
  },
};

function numberField(id) {
  const input = h("input", { id, name: id, type: "text", inputmode: "numeric", autocomplete: "off", dataset: { testid: id } });
  return field(id, ruleName(id), input, ruleAbout(id) || " ");
}

function check(id, label, checked, help = "") {
  const box = h("input", { id, type: "checkbox", checked });
  if (help) box.setAttribute("aria-describedby", `${id}-help`);
  return h("div.field.check", { dataset: { field: id } }, box, h("label", { for: id }, label), help ? h("small.help", { id: `${id}-help` }, help) : null);
}

/** A seat's choice: you, an open seat, or a computer of each level, weakest first. */
function seatSelect(seat, catalogue) {
  const choice = seat === 0 ? "you" : `ai:${catalogue.default_level || (catalogue.levels[0] || {}).name}`;
  const options = [
    ["you", t("lobby.seatChoice.you")],
    ["open", t("lobby.seatChoice.friend")],
    ...byStrength(catalogue).map((l) => [`ai:${l.name}`, t("lobby.seatChoice.computer", { level: levelTitle(l.name) })]),
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
    h("h2", { id: "new-game-title" }, t("lobby.setUp.title")),
    h("p.help", {}, t("lobby.setUp.help")),
    [0, 1, 2, 3].map((seat) => field(`seat-${seat}`, seatName(seat), seatSelect(seat, levels))),
    check("hints", t("lobby.setUp.hints"), true, t("lobby.setUp.hintsRated")),
    h(
      "details.house-rules",
      { dataset: { testid: "house-rules" } },
      h("summary", {}, t("lobby.setUp.houseRules"), " ", h("span.rules-summary", { id: "rules-summary" }, "")),
      field(
        "preset",
        t("lobby.setUp.preset"),
        h("select", { id: "preset", dataset: { testid: "preset" } }, ["partnership", "individual"].map((name) => h("option", { value: name }, presetName(name)))),
        " ",
      ),
      numberField("win_score"),
      numberField("lose_score"),
      field(
        "set_penalty",
        ruleName("set_penalty"),
        h("select", { id: "set_penalty" }, ["negative", "zero"].map((value) => h("option", { value }, t(`lobby.rule.set_penalty.${value}`)))),
        ruleAbout("set_penalty"),
      ),
      numberField("bag_limit"),
      numberField("bag_penalty"),
      numberField("nil_value"),
      numberField("min_team_bid"),
      numberField("max_team_bid"),
      CHECKS.map((id) => check(id, ruleName(id), true, ruleAbout(id))),
      variantsFieldset(),
    ),
    h("div.form-actions", {}, h("button.primary", { type: "submit", dataset: { testid: "create" } }, t("lobby.setUp.create")), h("small.field-error", { id: "form-error", role: "alert", dataset: { testid: "form-error" } })),
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
    select.replaceChildren(...Object.keys(catalogue.presets).map((name) => h("option", { value: name, selected: name === chosen }, presetName(name))));
  }
  addListedVariants(form, catalogue);
  const rules = catalogue.presets[select.value];
  form.dataset.scoring = rules.scoring;
  form.querySelector("#preset-help").textContent = presetAbout(select.value, catalogue);
  for (const slot of form.querySelectorAll("small.help[id$='-help']")) {
    const option = slot.id.slice(0, -"-help".length); // an option the catalogue lacks: the server's line
    if (!slot.textContent.trim() && option !== "preset") slot.textContent = ruleAbout(option, catalogue);
  }
  for (const name of Object.keys(NUMBERS)) {
    const value = rules[name];
    form.querySelector(`#${name}`).value = value === null || value === undefined ? "" : String(value);
    clearError(form, name);
  }
  form.querySelector("#set_penalty").value = rules.set_penalty;
  for (const name of CHECKS) form.querySelector(`#${name}`).checked = rules[name];
  for (const name of TEAM_ONLY) form.querySelector(`[data-field=${name}]`).hidden = rules.scoring !== "partnership";
  applyVariants(form, rules);
  clearErrors(form);
  const kind = rules.scoring === "partnership" ? "partnership" : "individual";
  const scoring = t(`lobby.scoring.${kind}`);
  form.querySelector("#rules-summary").textContent =
    select.value === kind
      ? t("lobby.setUp.summary", { scoring, score: rules.win_score })
      : t("lobby.setUp.summaryPreset", { preset: presetShort(select.value), scoring, score: rules.win_score });
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
      if (spec.required) errors.push({ id, text: t("lobby.form.enter", { label: ruleName(id).toLocaleLowerCase(), min: spec.min, max: spec.max }) });
      else rules[id] = null;
      continue;
    }
    const number = Number(text.replace(/[\s,]/g, "").replace("−", "-"));
    if (!Number.isInteger(number) || number < spec.min || number > spec.max) {
      errors.push({ id, text: rangeError(ruleName(id), spec) });
    } else {
      rules[id] = number;
    }
  }
  for (const id of CHECKS) rules[id] = form.querySelector(`#${id}`).checked;
  readVariants(form, rules, errors);
  const choices = [0, 1, 2, 3].map((s) => value(`seat-${s}`));
  if (choices.filter((c) => c === "you").length > 1) {
    errors.push({ id: `seat-${choices.lastIndexOf("you")}`, text: t("lobby.form.oneYou") });
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

/** A rule control's name in words ("Suicide", "Scoring" for the preset). */
export function optionLabel(id) {
  if (id === "preset") return ruleName("scoring");
  return ruleName(id === "mercy" ? "mercy_margin" : id);
}

/** A server's error message in plain words for a field the form knows (the server's own words are English:
 * a number's range is said from the form's, anything else names the field and that it was refused). */
export function plainError(id, message) {
  const spec = NUMBERS[id];
  if (spec && /greater|less|between|integer|number/i.test(message)) return rangeError(ruleName(id), spec);
  if (id.startsWith("seat-")) return t("lobby.form.seatRefused");
  return t("lobby.form.ruleRefused", { rule: optionLabel(id) });
}
