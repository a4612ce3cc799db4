// The lobby: "Play computers" — Play now, one click to a partnership game against three computers of a
// level chosen from a list ordered by strength — and "Play people" (quick match and open tables:
// playpeople.js), "Set up a table" (seats, friends, house rules: newgame.js; public or not, its
// clock: tableopts.js), your games (live and finished: yourgames.js), a link, rejoin code or game id to open.

import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { byStrength, levelSummary, levelTitle, loadLevels } from "./levels.js";
import { noticesPanel } from "./friends.js";
import { identityStrip, withPlayer } from "./identity.js";
import { describeProblem, showProblem } from "./messages.js";
import { applyPreset, clearErrors, field, fieldOf, newGameForm, optionLabel, plainError, readForm, showError } from "./newgame.js";
import { gameUrl, lobbyUrl, navigate } from "./router.js";
import { keepSeat } from "./seats.js";
import { playPeople, playTabs } from "./playpeople.js";
import { parseRejoin } from "./rejoin.js";
import { applyTableOptions, readTableOptions, tableOptionsFields } from "./tableopts.js";
import { liveGamesStrip, yourGamesPanel } from "./yourgames.js";

const LEVEL_KEY = "spades.level";

/** A level's strength as pips (●●●○○○) with its words for screen readers: "strength 3 of 6". */
function strengthPips(level, strongest) {
  const n = level.strength ?? 0;
  return h(
    "span.level-strength",
    { dataset: { strength: String(n) } },
    h("span.pips", { "aria-hidden": "true" }, "●".repeat(n) + "○".repeat(Math.max(0, strongest - n))),
    h("span.visually-hidden", {}, t("lobby.strength", { n, of: strongest })),
  );
}

function playNow(levels) {
  const ordered = byStrength(levels);
  const strongest = Math.max(0, ...ordered.map((l) => l.strength ?? 0));
  const stored = localStorage.getItem(LEVEL_KEY);
  const chosen = ordered.some((l) => l.name === stored) ? stored : levels.default_level || (ordered[0] || {}).name;
  const section = h(
    "section.panel.play-now",
    { "aria-labelledby": "play-now-title" },
    h("h1", { id: "play-now-title" }, t("lobby.playNow.title")),
    h("p.lead", {}, t("lobby.playNow.lead")),
    // the button before the seven levels: on screen without scrolling at every width (the level is remembered)
    h("div.form-actions", {}, h("button.primary.big", { type: "button", dataset: { testid: "play-now" }, onclick: (e) => startNow(e.currentTarget, section) }, t("lobby.playNow.button")), h("small.field-error", { id: "play-now-error", role: "alert" })),
    h(
      "fieldset.levels",
      {},
      h("legend", {}, t("lobby.levels.legend")),
      h(
        "div.level-list",
        {},
        ordered.map((level, i) =>
          h(
            "label.level",
            { dataset: { level: level.name } },
            h("input", { type: "radio", name: "level", value: level.name, checked: level.name === chosen, dataset: { testid: `level-${level.name}` } }),
            h(
              "span.level-name",
              {},
              levelTitle(level.name),
              " ",
              strengthPips(level, strongest),
              i === ordered.length - 1 ? h("span.level-tag", {}, " ", t("lobby.levels.strongest")) : i === 0 ? h("span.level-tag", {}, " ", t("lobby.levels.gentlest")) : null,
            ),
            h("span.level-summary", {}, levelSummary(level)),
          ),
        ),
      ),
    ),
  );
  return section;
}

async function startNow(button, section) {
  const level = section.querySelector("input[name=level]:checked").value;
  localStorage.setItem(LEVEL_KEY, level);
  button.disabled = true;
  try {
    const created = await withPlayer((playerToken) => {
      const seats = [asPlayer({ type: "human" }, playerToken), ...[1, 2, 3].map(() => ({ type: "ai", level }))];
      return api.createGame({ rules: { preset: "partnership" }, seats, options: { hints: true } }, playerToken);
    });
    keepSeat(created.game_id, 0, created.seats[0].token);
    navigate(gameUrl(created.game_id));
  } catch (problem) {
    section.querySelector("#play-now-error").textContent = describeProblem(problem);
    button.disabled = false;
  }
}

/** The person's own seat, bound to their player when they have a name. */
function asPlayer(seat, playerToken) {
  return playerToken ? { ...seat, player: true } : seat;
}

async function createGame(form) {
  clearErrors(form);
  const { spec, you, hints, errors } = readForm(form);
  if (errors.length) {
    for (const e of errors) showError(form, e.id, e.text);
    form.querySelector(`#${errors[0].id}`).focus();
    return;
  }
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const created = await withPlayer((playerToken) => {
      const seats = spec.seats.map((s, i) => (i === you ? asPlayer(s, playerToken) : s));
      return api.createGame({ ...spec, seats, options: { hints, ...readTableOptions(form) } }, you >= 0 ? playerToken : null);
    });
    clearErrors(form);
    if (you >= 0) keepSeat(created.game_id, you, created.seats[you].token);
    navigate(gameUrl(created.game_id));
  } catch (problem) {
    button.disabled = false;
    if (problem.code === "invalid_rules") return refusedCombination(form, problem);
    const placed = (problem.errors || []).map((e) => ({ id: fieldOf(e.field), text: e.message }));
    for (const e of placed) showError(form, e.id || "form", e.id ? plainError(e.id, e.text) : describeProblem(problem));
    if (!placed.length) showError(form, "form", describeProblem(problem));
    const first = placed.find((e) => e.id);
    if (first) form.querySelector(`#${first.id}`).focus();
  }
}

/** A combination of rules the server refuses (422 invalid_rules): its message under the variants,
 * both controls marked. The server is the one judge of which combinations make sense. */
function refusedCombination(form, problem) {
  const ids = problem.errors.map((e) => fieldOf(e.field)).filter(Boolean);
  const slot = form.querySelector("#variants-error");
  slot.textContent = ids.length ? combinationWords(ids) : describeProblem(problem);
  for (const id of ids) {
    const input = form.querySelector(`#${id}`);
    input.setAttribute("aria-invalid", "true");
    const described = (input.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
    if (!described.includes("variants-error")) input.setAttribute("aria-describedby", [...described, "variants-error"].join(" "));
  }
  form.querySelector("[data-testid=house-rules]").open = true;
  if (ids.length) form.querySelector(`#${ids[0]}`).focus();
}

/** Why two rules can't be played together, in the player's language (the server's words are English):
 * a partnership rule with individual scoring, or a rule that needs another one on. */
function combinationWords([rule, other]) {
  if (!other) return t("lobby.rules.refused", { rule: optionLabel(rule) });
  if (other === "preset") return t("lobby.rules.partnershipOnly", { rule: optionLabel(rule) });
  return t("lobby.rules.needs", { rule: optionLabel(rule), other: optionLabel(other) });
}

/** The lobby; {stop()} ends what it keeps running (the open tables' stream, a quick match's wait). */
export function renderLobby(root) {
  const lobby = {
    left: false,
    people: null,
    stop() {
      lobby.left = true;
      if (lobby.people) lobby.people.stop();
    },
  };
  buildLobby(root, lobby);
  return lobby;
}

async function buildLobby(root, lobby) {
  let levels = { levels: [], default_level: null };
  try {
    levels = await loadLevels();
  } catch (problem) {
    showProblem(problem);
  }
  if (lobby.left) return; // another page was opened meanwhile
  const form = newGameForm(levels, { onSubmit: createGame });
  form.querySelector("[data-testid=house-rules]").before(tableOptionsFields());
  const people = playPeople(levels);
  lobby.people = people;
  let catalogue = null;
  form.querySelector("#preset").addEventListener("change", () => applyPreset(form, catalogue));
  fill(
    root,
    h(
      "div.lobby",
      {},
      h("div.lobby-main", {}, identityStrip(), noticesPanel(), liveGamesStrip(), playTabs(playNow(levels), people.element, people.started), h("section.panel", {}, form)),
      h(
        "aside.panel.lobby-side",
        { "aria-label": t("lobby.side") },
        yourGamesPanel(),
        h(
          "form.join",
          { onsubmit: (e) => openLink(e), novalidate: true },
          h("h2", {}, t("lobby.join")),
          field("join", t("lobby.join.label"), h("input", { id: "join", type: "text", autocomplete: "off" })),
          h("button", { type: "submit" }, t("lobby.join.open")),
        ),
      ),
    ),
  );
  try {
    catalogue = await api.rules();
    applyPreset(form, catalogue);
    people.catalogue(catalogue);
    applyTableOptions(form, catalogue);
  } catch (problem) {
    showProblem(problem);
  }
}

function openLink(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const text = form.querySelector("#join").value.trim();
  const rejoin = parseRejoin(text);
  if (rejoin) return navigate(`${lobbyUrl()}#rejoin=${rejoin.gameId}.${rejoin.code}`);
  let gameId = text;
  let seat = null;
  try {
    const url = new URL(text, location.origin);
    if (url.searchParams.get("game")) {
      gameId = url.searchParams.get("game");
      seat = url.searchParams.get("seat");
    }
  } catch {
    /* a bare game id */
  }
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(gameId)) {
    form.querySelector("#join-error").textContent = t("lobby.join.invalid");
    form.querySelector("#join").setAttribute("aria-invalid", "true");
    return;
  }
  navigate(gameUrl(gameId, seat !== null && /^[0-3]$/.test(seat) ? `&seat=${seat}` : ""));
}
