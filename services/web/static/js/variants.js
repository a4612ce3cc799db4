// The house-rule variants in the "Set up a table" form: each one a tick box, off by default, with a
// short description, and its value (a number box) beside it where it has one. A value box is
// disabled while its rule is off, because the server refuses a value for a rule that is off; every
// other refusal (suicide with individual scoring, …) is the server's 422, shown under the variants.

import { h } from "./dom.js";

// Each variant: its tick box, its description, and the value it carries (the engine's ranges:
// tests/web/test_client_logic.py keeps them equal).
export const VARIANTS = {
  jokers: { label: "Jokers", help: "Big and Little Joker are the two highest spades; the 2♣ and 2♦ leave the deck." },
  deuces_high: { label: "Deuces high", help: "The 2♠ ranks above the A♠ (below the jokers)." },
  blind_nil: {
    label: "Blind nil",
    help: "A side trailing by the margin below may bid nil before looking at its cards.",
    value: { id: "blind_nil_value", label: "Points", min: 0, max: 100000 },
  },
  blind_bids: { label: "Blind bids", help: "A side trailing by the margin may bid tricks before looking; they score double." },
  suicide: { label: "Suicide", help: "In each team one partner must bid nil, the other at least the minimum." },
  ten_for_200: {
    label: "10 for 200",
    help: "A team contract of 10 or more scores a bonus (lost when set) instead of 10 a trick.",
    value: { id: "ten_for_200_value", label: "Bonus", min: 0, max: 100000 },
  },
  mercy: {
    label: "Mercy rule",
    help: "The game ends when a side trails the leader by this many points.",
    value: { id: "mercy_margin", label: "Margin", min: 1, max: 100000 },
  },
};
// Numbers that belong to more than one tick box, or to none.
export const VARIANT_NUMBERS = {
  blind_margin: { label: "Blind when trailing by", min: 0, max: 100000, help: "0: blind decisions always allowed.", needs: ["blind_nil", "blind_bids"] },
  nil_pass_cards: { label: "Nil passing: cards", min: 0, max: 3, help: "A nil bidder and partner swap this many cards; 0: no exchange." },
};
const BLIND_ONLY = { label: "Pass only after a blind nil", help: "Needs blind nil and a number of cards." };
// The server's names for the variants' controls (mercy is a tick box over `mercy_margin`).
const NAMES = ["jokers", "deuces_high", "blind_nil", "blind_nil_value", "blind_bids", "blind_margin", "nil_pass_cards", "nil_pass_blind_only", "suicide", "ten_for_200", "ten_for_200_value", "mercy_margin"];

/** Every rule option the variants cover (tests compare them with the engine's house rules). */
export const VARIANT_OPTIONS = NAMES;

function numberBox(id, spec) {
  return h("input.variant-number", {
    id, name: id, type: "text", inputmode: "numeric", autocomplete: "off",
    "aria-describedby": `${id}-error`, dataset: { testid: id },
  });
}

function variant(id, spec) {
  const value = spec.value;
  return h(
    "div.variant",
    { dataset: { field: id } },
    h("input", { id, type: "checkbox", dataset: { testid: id }, "aria-describedby": `${id}-help` }),
    h("label.variant-name", { for: id }, spec.label),
    value
      ? h("span.variant-value", {}, h("label.variant-value-label", { for: value.id }, value.label), numberBox(value.id, value))
      : null,
    h("small.help", { id: `${id}-help` }, spec.help),
    value ? h("small.field-error", { id: `${value.id}-error` }) : null,
  );
}

function numberRow(id) {
  const spec = VARIANT_NUMBERS[id];
  return h(
    "div.variant.variant-plain",
    { dataset: { field: id } },
    h("label.variant-name", { for: id }, spec.label),
    h("span.variant-value", {}, numberBox(id, spec)),
    h("small.help", { id: `${id}-help` }, spec.help),
    h("small.field-error", { id: `${id}-error` }),
  );
}

/** The variants' fieldset, with one error line for the server's refusals of a combination. */
export function variantsFieldset() {
  const set = h(
    "fieldset.variants",
    { dataset: { testid: "variants" }, "aria-describedby": "variants-error" },
    h("legend", {}, "Variants"),
    variant("jokers", VARIANTS.jokers),
    variant("deuces_high", VARIANTS.deuces_high),
    variant("blind_nil", VARIANTS.blind_nil),
    variant("blind_bids", VARIANTS.blind_bids),
    numberRow("blind_margin"),
    numberRow("nil_pass_cards"),
    h(
      "div.variant",
      { dataset: { field: "nil_pass_blind_only" } },
      h("input", { id: "nil_pass_blind_only", type: "checkbox", dataset: { testid: "nil_pass_blind_only" }, "aria-describedby": "nil_pass_blind_only-help" }),
      h("label.variant-name", { for: "nil_pass_blind_only" }, BLIND_ONLY.label),
      h("small.help", { id: "nil_pass_blind_only-help" }, BLIND_ONLY.help),
    ),
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
  syncVariants(root);
}

/** The variants as rule options, into `rules`; field errors into `errors` ({id, text}). A value box
 * is sent only while its rule is on. */
export function readVariants(root, rules, errors) {
  const on = (id) => root.querySelector(`#${id}`).checked;
  for (const id of ["jokers", "deuces_high", "blind_nil", "blind_bids", "suicide", "ten_for_200", "nil_pass_blind_only"]) rules[id] = on(id);
  const number = (id, spec) => {
    const text = root.querySelector(`#${id}`).value.trim();
    const n = Number(text.replace(/[\s,]/g, ""));
    if (text === "" || !Number.isInteger(n) || n < spec.min || n > spec.max) {
      errors.push({ id, text: `${spec.label} must be a whole number from ${spec.min} to ${spec.max}.` });
      return undefined;
    }
    return n;
  };
  const values = { blind_nil: VARIANTS.blind_nil.value, ten_for_200: VARIANTS.ten_for_200.value };
  for (const [rule, spec] of Object.entries(values)) if (on(rule)) rules[spec.id] = number(spec.id, spec);
  if (on("blind_nil") || on("blind_bids")) rules.blind_margin = number("blind_margin", VARIANT_NUMBERS.blind_margin);
  rules.nil_pass_cards = number("nil_pass_cards", VARIANT_NUMBERS.nil_pass_cards);
  rules.mercy_margin = on("mercy") ? number("mercy_margin", VARIANTS.mercy.value) : null;
}

/** Is `option` (a server field "rules.X"'s X) one of the variants' controls? */
export function isVariant(option) {
  return NAMES.includes(option);
}

/** "Jokers, deuces high, blind nil (±200)…": the rules' variants in words, or [] for none. */
export function variantWords(rules) {
  const words = [];
  if (rules.jokers) words.push("Jokers (Big ▸ Little ▸ A♠)");
  if (rules.deuces_high) words.push("Deuces high (2♠ above A♠)");
  if (rules.blind_nil) words.push(`Blind nil ±${rules.blind_nil_value}`);
  if (rules.blind_bids) words.push("Blind bids score double");
  if (rules.blind_nil || rules.blind_bids) words.push(rules.blind_margin ? `Blind when trailing by ${rules.blind_margin}+` : "Blind any time");
  if (rules.nil_pass_cards) words.push(`Nil passing: ${rules.nil_pass_cards} card${rules.nil_pass_cards > 1 ? "s" : ""}${rules.nil_pass_blind_only ? " (blind nil only)" : ""}`);
  if (rules.suicide) words.push("Suicide: one partner bids nil");
  if (rules.ten_for_200) words.push(`10 for ${rules.ten_for_200_value}`);
  if (rules.mercy_margin !== null && rules.mercy_margin !== undefined) words.push(`Mercy at ${rules.mercy_margin} behind`);
  return words;
}
