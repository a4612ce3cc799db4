// The lobby's first panel as two tabs: "Computers" (Play now: lobby.js) and "People" — quick match
// (quickmatch.js) beside the open tables (opentables.js). The tab chosen is kept in this browser.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { openTables } from "./opentables.js";
import { quickMatchForm, resumeMatch, startMatch } from "./quickmatch.js";

const TAB_KEY = "spades.lobbyTab";

/** The "People" panel: {element, stop(), catalogue(rules catalogue)} (the form's presets and clocks). */
export function playPeople(levels) {
  let waiting = resumeMatch();
  let tables = null;
  const submit = (form, wanted) => {
    if (waiting) waiting.stop();
    waiting = startMatch(form, wanted);
  };
  let form = quickMatchForm(levels, null, submit);
  const element = h(
    "section.play-people",
    { "aria-label": t("lobby.tab.people") },
    h("h1.visually-hidden", {}, t("lobby.people.title")),
    h("p.lead", {}, t("lobby.people.lead")),
    h("div.people-grid", {}, form),
  );
  const started = () => {
    if (tables) return;
    tables = openTables(); // the open tables' stream runs only while they are shown
    element.querySelector(".people-grid").append(tables.element);
  };
  return {
    element,
    started,
    stop() {
      if (waiting) waiting.stop();
      if (tables) tables.stop();
    },
    catalogue(catalogue) {
      const fresh = quickMatchForm(levels, catalogue, submit); // the server's presets and clocks…
      for (const id of ["qm-preset", "qm-wait", "qm-level"]) {
        const was = form.querySelector(`#${id}`).value; // …keeping what was chosen meanwhile
        if ([...fresh.querySelector(`#${id}`).options].some((o) => o.value === was)) fresh.querySelector(`#${id}`).value = was;
      }
      const clock = form.querySelector("input[name=qm-clock]:checked");
      const same = clock && fresh.querySelector(`input[name=qm-clock][value="${clock.value}"]`);
      if (same) same.checked = true;
      // the Find button and its error line as they are: a request already sent answers into them
      fresh.querySelector(".form-actions").replaceWith(form.querySelector(".form-actions"));
      form.replaceWith(fresh);
      form = fresh;
    },
  };
}

/** The two tabs over "Computers" and "People"; `onPeople` runs the first time People is shown. */
export function playTabs(computers, people, onPeople) {
  const panels = { computers, people };
  const tabs = {};
  const choose = (name, focus = false) => {
    localStorage.setItem(TAB_KEY, name);
    for (const [key, tab] of Object.entries(tabs)) {
      const on = key === name;
      tab.setAttribute("aria-selected", on ? "true" : "false");
      tab.tabIndex = on ? 0 : -1;
      panels[key].hidden = !on;
      if (on && focus) tab.focus();
    }
    if (name === "people") onPeople();
  };
  for (const [name, label] of [["computers", t("lobby.tab.computers")], ["people", t("lobby.tab.people")]]) {
    panels[name].id = `tab-panel-${name}`;
    panels[name].setAttribute("role", "tabpanel");
    panels[name].setAttribute("aria-labelledby", `tab-${name}`);
    tabs[name] = h("button.tab", {
      type: "button", role: "tab", id: `tab-${name}`, "aria-controls": `tab-panel-${name}`,
      dataset: { testid: `tab-${name}` }, onclick: () => choose(name),
    }, label);
  }
  const names = Object.keys(tabs);
  const list = h("div.tabs", { role: "tablist", "aria-label": t("lobby.tab.label"), onkeydown: (e) => {
    if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(e.key)) return;
    e.preventDefault();
    const at = names.findIndex((n) => tabs[n].getAttribute("aria-selected") === "true");
    const next = e.key === "Home" ? 0 : e.key === "End" ? names.length - 1 : (at + (e.key === "ArrowRight" ? 1 : -1) + names.length) % names.length;
    choose(names[next], true);
  } }, tabs.computers, tabs.people);
  const stored = localStorage.getItem(TAB_KEY);
  choose(stored === "people" || sessionStorage.getItem("spades.match") ? "people" : "computers");
  return h("section.panel.play-panel", {}, list, computers, people);
}
