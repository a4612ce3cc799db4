// The client's words: every visible string is a key of a message catalogue (locales/<code>.js), looked
// up with t(); plurals by Intl.PluralRules, numbers, dates and lists by Intl, in the chosen language.
// English is always loaded and answers for a key a catalogue lacks (the tests keep every catalogue
// complete). Never call t() at a module's top level: the language is chosen after the modules load.

import english from "./locales/en.js";
import { LANGUAGES } from "./locales/index.js";

const STORED = "spades.lang";

let code = "en";
let catalogue = english;
let plurals = new Intl.PluralRules("en");
let numbers = new Intl.NumberFormat("en");

export { LANGUAGES };

/**
 * The language to show: `?lang=<code>` in the address, else the one chosen in Settings, else the
 * first of the browser's languages (`navigator.languages`, region ignored) there is a catalogue for,
 * else English.
 */
export function chooseLanguage({ search = "", stored = null, languages = [] } = {}) {
  const known = (tag) => {
    const base = String(tag || "").toLowerCase().split("-")[0];
    return Object.hasOwn(LANGUAGES, base) ? base : null;
  };
  const asked = known(new URLSearchParams(search).get("lang"));
  if (asked) return asked;
  if (known(stored)) return known(stored);
  for (const tag of languages) if (known(tag)) return known(tag);
  return "en";
}

/** Loads and makes current the catalogue of `language` (a key of LANGUAGES); sets <html lang>. */
export async function useLanguage(language) {
  code = Object.hasOwn(LANGUAGES, language) ? language : "en";
  catalogue = code === "en" ? english : (await import(`./locales/${code}.js`)).default;
  plurals = new Intl.PluralRules(code);
  numbers = new Intl.NumberFormat(code);
  if (typeof document !== "undefined") document.documentElement.lang = code;
  return code;
}

/** The language in use (a key of LANGUAGES). */
export function language() {
  return code;
}

/** In the browser: the language this page shows, from its address, Settings and the browser. */
export function pageLanguage() {
  let stored = null;
  try {
    stored = localStorage.getItem(STORED);
  } catch {
    stored = null;
  }
  return chooseLanguage({ search: location.search, stored, languages: navigator.languages || [navigator.language] });
}

/** Remembers the language chosen in Settings (the page is then loaded again in it). */
export function rememberLanguage(language) {
  localStorage.setItem(STORED, language);
}

/**
 * The message `key` with `{name}` placeholders filled from `params` (numbers formatted for the
 * language). A message with plural forms ({one, other, …}) is chosen by `params.count`.
 */
export function t(key, params = {}) {
  let message = Object.hasOwn(catalogue, key) ? catalogue[key] : english[key];
  if (message === undefined) return key;
  if (typeof message === "object") message = message[plurals.select(Number(params.count ?? 0))] ?? message.other;
  return message.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(params, name) ? formatted(params[name]) : whole));
}

/** Whether the catalogue in use (or English) has `key`: for optional texts chosen by a code. */
export function has(key) {
  return Object.hasOwn(catalogue, key) || Object.hasOwn(english, key);
}

/** A formatted number with a true minus sign (U+2212) where Intl writes a hyphen-minus: "−130", in every
 * language, as the scores' own signed() writes it. */
function trueMinus(text) {
  return text.replace("-", "\u2212");
}

function formatted(value) {
  return typeof value === "number" ? trueMinus(numbers.format(value)) : String(value);
}

/** A number in the language's way (`options`: Intl.NumberFormat's), a negative one with a true minus sign. */
export function formatNumber(value, options = undefined) {
  return trueMinus(options ? new Intl.NumberFormat(code, options).format(value) : numbers.format(value));
}

/** A signed number: "+12", "−8" (a score's change). */
export function formatSigned(value) {
  return trueMinus(new Intl.NumberFormat(code, { signDisplay: "exceptZero" }).format(value));
}

/** A date or a moment (`options`: Intl.DateTimeFormat's; the default a medium date). */
export function formatDate(value, options = { dateStyle: "medium" }) {
  return new Intl.DateTimeFormat(code, options).format(value instanceof Date ? value : new Date(value));
}

/** "a, b and c" in the language (`type` "conjunction" or "disjunction"). */
export function formatList(items, type = "conjunction") {
  return new Intl.ListFormat(code, { style: "long", type }).format(items.map(String));
}

/** Fills the page's own markup: `data-i18n="key"` sets the text, `data-i18n-label="key"` the aria-label. */
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.setAttribute("title", t(el.dataset.i18nTitle));
}
