// The house-rule variants in the "Set up a table" form: each one a tick box, off by default, with a
// short description, and its value (a number box) beside it where it has one. A value box is
// disabled while its rule is off, because the server refuses a value for a rule that is off; every
// other refusal (suicide with individual scoring, …) is the server's 422, shown under the variants.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { ruleAbout, ruleName } from "./rulewords.js";

// Each variant: its tick box and the value it carries (the engine's ranges: tests/web/test_client_logic.py
// keeps them equal). Names and lines are the catalogues' by option code (`lobby.rule.<option>`, `….about`);
// a value's short label beside its tick box is `lobby.variant.<value>`.
export const VARIANTS = {
  jokers: {},
  deuces_high: {},
  blind_nil: { value: { id: "blind_nil_value", min: 0, max: 100000 } },
  blind_bids: {},
  suicide: {},
  ten_for_200: { value: { id: "ten_for_200_value", min: 0, max: 100000 } },
  mercy: { option: "mercy_margin", value: { id: "mercy_margin", min: 1, max: 100000 } },
};
// Numbers that belong to more than one tick box, or to none.
export const VARIANT_NUMBERS = {
  blind_margin: { min: 0, max: 100000, needs: ["blind_nil", "blind_bids"] },
  nil_pass_cards: { min: 0, max: 3 },
};
// The server's names for the variants' controls (mercy is a tick box over `mercy_margin`).
const NAMES = ["jokers", "deuces_high", "blind_nil", "blind_nil_value", "blind_bids", "blind_margin", "nil_pass_cards", "nil_pass_blind_only", "suicide", "ten_for_200", "ten_for_200_value", "mercy_margin"];

/** Every rule option the variants above lay out (tests compare them with the engine's house rules). */
export const VARIANT_OPTIONS = NAMES;

// The house rules the server lists (GET /v1/rules, `house: true`) that have no layout above: one plain row each,
// a tick box for a switch and a number box for a value, so a new house rule is offered without an edit here.
const LISTED = new Map(); // option name -> its catalogue entry

/** Add a row for each listed house rule the fieldset lacks; called whenever the catalogue is at hand. */
export function addListedVariants(root, catalogue) {
  const end = root.querySelector("#variants-error");
  for (const option of (catalogue && catalogue.options) || []) {
    if (!option.house || NAMES.includes(option.name)) continue;
    LISTED.set(option.name, option);
    if (!root.querySelector(`#${option.name}`)) end.before(option.type === "boolean" ? tickRow(option.name) : numberRow(option.name));
  }
}

function listedHere(root) {
  return [...LISTED.values()].filter((option) => root.querySelector(`#${option.name}`));
}

function numberBox(id) {
  return h("input.variant-number", {
    id, name: id, type: "text", inputmode: "numeric", autocomplete: "off",
    "aria-describedby": `${id}-error`, dataset: { testid: id },
  });
}

function variant(id, spec) {
  const value = spec.value;
  const option = spec.option || id;
  return h(
    "div.variant",
    { dataset: { field: id } },
    h("input", { id, type: "checkbox", dataset: { testid: id }, "aria-describedby": `${id}-help` }),
    h("label.variant-name", { for: id }, ruleName(option)),
    value
      ? h("span.variant-value", {}, h("label.variant-value-label", { for: value.id }, t(`lobby.variant.${value.id}`)), numberBox(value.id))
      : null,
    h("small.help", { id: `${id}-help` }, ruleAbout(option)),
    value ? h("small.field-error", { id: `${value.id}-error` }) : null,
  );
}

function tickRow(id) {
  return h(
    "div.variant",
    { dataset: { field: id } },
    h("input", { id, type: "checkbox", dataset: { testid: id }, "aria-describedby": `${id}-help` }),
    h("label.variant-name", { for: id }, ruleName(id)),
    h("small.help", { id: `${id}-help` }, ruleAbout(id)),
  );
}

function numberRow(id) {
  return h(
    "div.variant.variant-plain",
    { dataset: { field: id } },
    h("label.variant-name", { for: id }, ruleName(id)),
    h("span.variant-value", {}, numberBox(id)),
    h("small.help", { id: `${id}-help` }, ruleAbout(id)),
    h("small.field-error", { id: `${id}-error` }),
  );
}

/** The variants' fieldset, with one error line for the server's refusals of a combination. */
export function variantsFieldset() {
  const set = h(
    "fieldset.variants",
    { dataset: { testid: "variants" }, "aria-describedby": "variants-error" },
    h("legend", {}, t("lobby.variants")),
    variant("jokers", VARIANTS.jokers),
    variant("deuces_high", VARIANTS.deuces_high),
    variant("blind_nil", VARIANTS.blind_nil),
    variant("blind_bids", VARIANTS.blind_bids),
    numberRow("blind_margin"),
    numberRow("nil_pass_cards"),
    tickRow("nil_pass_blind_only"),
    variant("suicide", VARIANTS.suicide),
    variant("ten_for_200", VARIANTS.ten_for_200),
    variant("mercy", VARIANTS.mercy),
    h("p.field-error.variants-error", { id: "variants-error", role: "alert", dataset: { testid: "variants-error" } }),
  );
  set.addEventListener("change", () => syncVariants(set));
  set.addEventListener("input", () => syncVariants(set));
  return set;
}

/** Disable what obviously depends on a control that is off (its value, the blind-only exchange). */
export function syncVariants(root) {
  const on = (id) => root.querySelector(`#${id}`).checked;
  for (const [id, spec] of Object.entries(VARIANTS)) if (spec.value) root.querySelector(`#${spec.value.id}`).disabled = !on(id);
  root.querySelector("#blind_margin").disabled = !(on("blind_nil") || on("blind_bids"));
  const cards = Number(root.querySelector("#nil_pass_cards").value.trim() || "0");
  const blindOnly = root.querySelector("#nil_pass_blind_only");
  blindOnly.disabled = !(cards > 0 && on("blind_nil"));
  if (blindOnly.disabled) blindOnly.checked = false;
}

/** Fill the variants from a preset's rules. */
export function applyVariants(root, rules) {
  const set = (id, value) => (root.querySelector(`#${id}`).value = String(value));
  for (const id of ["jokers", "deuces_high", "blind_nil", "blind_bids", "suicide", "ten_for_200", "nil_pass_blind_only"]) {
    root.querySelector(`#${id}`).checked = Boolean(rules[id]);
  }
  root.querySelector("#mercy").checked = rules.mercy_margin !== null && rules.mercy_margin !== undefined;
  set("blind_nil_value", rules.blind_nil_value ?? 200);
  set("blind_margin", rules.blind_margin ?? 100);
  set("nil_pass_cards", rules.nil_pass_cards ?? 0);
  set("ten_for_200_value", rules.ten_for_200_value ?? 200);
  set("mercy_margin", rules.mercy_margin ?? 500);
  for (const option of listedHere(root)) {
    if (option.type === "boolean") root.querySelector(`#${option.name}`).checked = Boolean(rules[option.name]);
    else set(option.name, rules[option.name] ?? option.default ?? "");
  }
  syncVariants(root);
}

/** The variants as rule options, into `rules`; field errors into `errors` ({id, text}). A value box
 * is sent only while its rule is on. */
export function readVariants(root, rules, errors) {
  const on = (id) => root.querySelector(`#${id}`).checked;
  for (const id of ["jokers", "deuces_high", "blind_nil", "blind_bids", "suicide", "ten_for_200", "nil_pass_blind_only"]) rules[id] = on(id);
  const number = (id, spec, label = ruleName(id)) => {
    const text = root.querySelector(`#${id}`).value.trim();
    const n = Number(text.replace(/[\s,]/g, ""));
    if (text === "" || !Number.isInteger(n) || n < spec.min || n > spec.max) {
      errors.push({ id, text: t("lobby.form.range", { label, min: spec.min, max: spec.max }) });
      return undefined;
    }
    return n;
  };
  const values = { blind_nil: VARIANTS.blind_nil.value, ten_for_200: VARIANTS.ten_for_200.value };
  for (const [rule, spec] of Object.entries(values)) if (on(rule)) rules[spec.id] = number(spec.id, spec);
  if (on("blind_nil") || on("blind_bids")) rules.blind_margin = number("blind_margin", VARIANT_NUMBERS.blind_margin);
  rules.nil_pass_cards = number("nil_pass_cards", VARIANT_NUMBERS.nil_pass_cards);
  rules.mercy_margin = on("mercy") ? number("mercy_margin", VARIANTS.mercy.value) : null;
  for (const option of listedHere(root)) {
    const empty = !root.querySelector(`#${option.name}`).value?.trim();
    if (option.type === "boolean") rules[option.name] = on(option.name);
    else if (option.type === "integer|null" && empty) rules[option.name] = null;
    else rules[option.name] = number(option.name, { min: option.minimum, max: option.maximum });
  }
}

/** Is `option` (a server field "rules.X"'s X) one of the variants' controls? */
export function isVariant(option) {
  return NAMES.includes(option) || LISTED.has(option);
}

/** "Jokers, deuces high, blind nil (±200)…": the rules' variants in words, or [] for none (rulewords.js). */
export { variantWords } from "./rulewords.js";
