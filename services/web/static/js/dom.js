// Tiny DOM helpers: build elements without innerHTML (no markup injection, CSP-friendly).

/**
 * h("button.card", {type: "button", onclick: fn, "aria-label": "Queen of spades"}, "Q", child)
 * The tag may carry classes after dots. Attributes: on* are listeners, `dataset` an object,
 * true/false toggle boolean attributes, null/undefined are skipped.
 */
export function h(tagAndClasses, attrs = {}, ...children) {
  const [tag, ...classes] = tagAndClasses.split(".");
  const el = document.createElement(tag || "div");
  if (classes.length) el.className = classes.join(" ");
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2), value);
    } else if (name === "dataset") {
      Object.assign(el.dataset, value);
    } else if (name === "class") {
      el.className = [el.className, value].filter(Boolean).join(" ");
    } else {
      el.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * Resolves after `ms` milliseconds (0: on the next task; at once in a hidden tab, whose timers the
 * browser slows down). Pacing only, never synchronisation.
 */
export function pause(ms) {
  if (ms <= 0 && typeof document !== "undefined" && document.hidden) return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
