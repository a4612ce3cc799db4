// The events (#/events): the newest events (GET /v1/events) — name, format, status, pairs, start, deals —
// each a link to its page, and for a signed-in player "Create an event" (duplicate pairs: rounds, deals per
// round, the expert's par; an arena: its length and seating; both: clock, rated: POST /v1/events), which opens
// the new event's page. The words the event pages share
// are here too (a pair's names, a status, a start).

import { api } from "./api.js";
import { timeControls } from "./clock.js";
import { fill, h } from "./dom.js";
import { formatDate, formatList, formatNumber, t } from "./i18n.js";
import { currentPlayer, playerToken } from "./identity.js";
import { describeProblem } from "./messages.js";
import { levelName } from "./playertext.js";
import { eventsUrl, followLink, lobbyUrl, navigate } from "./router.js";
import { clockName } from "./tableopts.js";

export const POLL_MS = 3000; // how often an event's page in sight reads it again

/** A pair's names ("Ada and Bea"; the computer pair: "Computers · standard"), from the event's pairs (pure). */
export function pairNames(pair, event) {
  if (!pair) return "";
  if (pair.kind === "computer") return t("events.computers", { level: levelName(event.stand_in_level) });
  return formatList(pair.players.map((m) => (m.kind === "bot" ? t("events.bot", { name: m.name }) : m.name)));
}

/** The pair numbered `number` in `event` (pure). */
export function pairByNumber(event, number) {
  return event.pairs.find((p) => p.number === number) || null;
}

export function statusName(status) {
  return t(`events.status.${status}`);
}

/** When it starts: a time, "when its creator starts it", or when it did. */
export function startWords(event) {
  return event.start_at_ms ? formatDate(event.start_at_ms, { dateStyle: "medium", timeStyle: "short" }) : t("events.startByCreator");
}

/** "2 rounds × 1 deal"; an arena: "30 min · 1 deal a game". */
export function dealsWords(event) {
  if (event.format === "arena") return t("arena.lengthWords", { minutes: t("arena.minutes", { count: event.minutes }), deals: t("events.deals", { count: event.deals_per_round }) });
  return t("events.dealsWords", { rounds: event.rounds, deals: t("events.deals", { count: event.deals_per_round }) });
}

/** An event page's title and facts: its status · format · `words` (what the format plays) · clock · rated. */
export function eventHeader(event, words) {
  const clock = event.clock === "none" ? t("lobby.clock.none") : clockName(event.clock);
  return [
    h("h1", { id: "ev-title" }, event.name),
    h("p.ev-facts", {}, h(`span.ev-status.ev-${event.status}`, { dataset: { testid: "event-status" } }, statusName(event.status)), ` · ${t(`events.format.${event.format}`)} · ${words} · ${clock} · ${t(event.rated ? "events.ratedMark" : "events.unratedMark")}`),
  ];
}

export function crumbs(...more) {
  return h("nav.crumbs", { "aria-label": t("players.pages") }, h("a", { href: lobbyUrl(), onclick: followLink }, t("players.lobby")), ...more);
}

function eventsTable(events) {
  if (!events.length) return h("p.note", { dataset: { testid: "events-empty" } }, t("events.none"));
  return h(
    "table.events-table",
    { dataset: { testid: "events-table" } },
    h("caption.visually-hidden", {}, t("events.title")),
    h(
      "thead",
      {},
      h("tr", {}, ["events.name", "events.format", "events.statusHead", "events.pairs", "events.start", "events.dealsHead"].map((k) => h("th", { scope: "col" }, t(k)))),
    ),
    h(
      "tbody",
      {},
      events.map((e) =>
        h(
          "tr",
          { dataset: { testid: `event-row-${e.event_id}` } },
          h("th.ev-name", { scope: "row" }, h("a", { href: eventsUrl(e.event_id), onclick: followLink }, e.name)),
          h("td", {}, t(`events.format.${e.format}`)),
          h("td", {}, h(`span.ev-status.ev-${e.status}`, {}, statusName(e.status))),
          h("td.num", {}, e.format === "arena" ? "–" : t("events.pairsOf", { count: formatNumber(e.pairs_count), max: formatNumber(e.max_pairs) })),
          h("td", {}, startWords(e)),
          h("td", {}, dealsWords(e)),
        ),
      ),
    ),
  );
}

function field(id, label, control) {
  return h("div.field", {}, h("label", { for: id }, label), control);
}

/** "Create an event": name, format; rounds, deals per round and par (duplicate) or minutes, seating and deals a
 * game (arena); clock, rated; the new event's page on success. */
function createForm() {
  const error = h("p.error-note", { role: "alert", dataset: { testid: "event-create-error" } });
  const number = (id, min, max, value) => h("input", { id, type: "number", min: String(min), max: String(max), value: String(value), required: true, dataset: { testid: id } });
  const clock = h("select", { id: "event-clock", dataset: { testid: "event-clock" } }, h("option", { value: "none" }, t("lobby.clock.none")));
  // an arena needs a clock (the server's 422 arena_needs_clock): choosing one offers "Normal" in place of none
  const arenaClock = () => form.dataset.format === "arena" && clock.value === "none" && clock.querySelector("option[value=normal]") && (clock.value = "normal");
  api.rules().then(
    (catalogue) => {
      clock.append(...timeControls(catalogue).filter((c) => c.name !== "none").map((c) => h("option", { value: c.name }, clockName(c.name))));
      arenaClock();
    },
    () => {},
  );
  const format = h("select", { id: "event-format", dataset: { testid: "event-format" } }, ["duplicate_pairs", "arena"].map((f) => h("option", { value: f }, t(`events.format.${f}`))));
  const seating = h("select", { id: "event-seating", dataset: { testid: "event-seating" } }, ["partners", "solo"].map((s) => h("option", { value: s }, t(`arena.seating.${s}`))));
  const form = h(
    "form.event-create",
    { dataset: { testid: "event-create", format: "duplicate_pairs" }, "aria-label": t("events.create") },
    h(
      "div.event-create-fields",
      {},
      field("event-name", t("events.name"), h("input", { id: "event-name", type: "text", maxlength: "60", required: true, value: "", dataset: { testid: "event-name" } })),
      field("event-format", t("events.format"), format),
      h("div.field.dup-only", {}, h("label", { for: "event-rounds" }, t("events.rounds")), number("event-rounds", 1, 100, 7)),
      h("div.field.arena-only", {}, h("label", { for: "event-minutes" }, t("arena.length")), number("event-minutes", 1, 1440, 30)),
      h("div.field.arena-only", {}, h("label", { for: "event-seating" }, t("arena.seatingHead")), seating),
      h("div.field", {}, h("label", { for: "event-deals" }, h("span.dup-only", {}, t("events.dealsPerRound")), h("span.arena-only", {}, t("arena.dealsPerGame"))), number("event-deals", 1, 10, 2)),
      field("event-clock", t("lobby.setUp.clock"), clock),
      h(
        "div.ev-checks",
        {},
        h("div.field.check", {}, h("input", { id: "event-rated", type: "checkbox", dataset: { testid: "event-rated" } }), h("label", { for: "event-rated" }, t("events.rated"))),
        h("div.field.check.dup-only", {}, h("input", { id: "event-par", type: "checkbox", checked: true, dataset: { testid: "event-par" } }), h("label", { for: "event-par" }, t("events.parOption"))),
      ),
    ),
    h("small.help.dup-only", {}, t("events.createHelp")),
    h("small.help.arena-only", {}, t("arena.createHelp")),
    error,
    h("button.primary", { type: "submit", dataset: { testid: "event-create-submit" } }, t("events.createButton")),
  );
  format.addEventListener("change", () => {
    form.dataset.format = format.value; // the CSS shows the chosen format's fields only
    arenaClock();
    for (const input of form.querySelectorAll(".dup-only input, .arena-only input")) input.disabled = Boolean(input.closest(format.value === "arena" ? ".dup-only" : ".arena-only"));
  });
  form.querySelector("#event-minutes").disabled = true;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const value = (id) => Number(form.querySelector(id).value);
    const common = { name: form.querySelector("#event-name").value.trim(), format: format.value, deals_per_round: value("#event-deals"), clock: clock.value, rated: form.querySelector("#event-rated").checked };
    const body = format.value === "arena" ? { ...common, minutes: value("#event-minutes"), seating: seating.value } : { ...common, rounds: value("#event-rounds"), par: form.querySelector("#event-par").checked };
    if (!body.name) {
      error.textContent = t("events.nameEmpty");
      return;
    }
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const made = await api.createEvent(playerToken(), body);
      navigate(eventsUrl(made.event_id));
    } catch (problem) {
      error.textContent = describeProblem(problem);
      button.disabled = false;
    }
  });
  return form;
}

/** The events page; {stop()}. */
export function renderEvents(root) {
  const page = { stopped: false, stop: () => (page.stopped = true) };
  const body = h("div.ev-body", { "aria-live": "polite", "aria-busy": "true" }, h("p.loading-note", {}, t("events.loading")));
  fill(
    root,
    h(
      "div.ev-page",
      { dataset: { testid: "events" } },
      crumbs(),
      h(
        "section.panel.ev-panel",
        { "aria-labelledby": "ev-title" },
        h("h1", { id: "ev-title" }, t("events.title")),
        h("p.help.ev-lead", {}, t("events.lead")),
        // above the list, folded: in view however long the list grows
        currentPlayer()
          ? h("details.ev-create", { dataset: { testid: "event-create-panel" } }, h("summary", { dataset: { testid: "event-create-open" } }, t("events.create")), createForm())
          : h("p.note", { dataset: { testid: "events-need-name" } }, t("events.needName")),
        body,
      ),
    ),
  );
  api.events({ limit: 20 }).then(
    (answer) => {
      if (page.stopped) return;
      body.removeAttribute("aria-busy");
      fill(body, eventsTable(answer.events));
    },
    (problem) => {
      if (page.stopped) return;
      body.removeAttribute("aria-busy");
      fill(body, h("p.error-note", { role: "alert" }, describeProblem(problem)));
    },
  );
  return page;
}
