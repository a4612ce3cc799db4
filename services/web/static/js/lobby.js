// The lobby: create a game (rules, seats, hints), resume a game this browser holds a seat in,
// open a game to watch; and the invite page that claims a seat from a link.

import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { lobbyUrl } from "./game.js";
import { loadLevels } from "./levels.js";
import { describeProblem, showMessage, showProblem } from "./messages.js";
import { navigate } from "./router.js";
import { heldGames, keepSeat } from "./seats.js";
import { SEAT_NAMES, seatKind, seatName } from "./seating.js";

/** The game's address, keeping a ?pace= override. */
export function gameUrl(gameId, extra = "") {
  const pace = new URLSearchParams(location.search).get("pace");
  return `/play?game=${encodeURIComponent(gameId)}${extra}${pace === null ? "" : `&pace=${encodeURIComponent(pace)}`}`;
}

function field(label, input, help = "") {
  const id = input.id;
  return h("div.field", {}, h("label", { for: id }, label), input, help ? h("small.help", { id: `${id}-help` }, help) : null);
}

function check(id, label, checked, help = "") {
  return h(
    "div.field.check",
    {},
    h("input", { id, type: "checkbox", checked, "aria-describedby": help ? `${id}-help` : null }),
    h("label", { for: id }, label),
    help ? h("small.help", { id: `${id}-help` }, help) : null,
  );
}

/** A seat's choice: you, an open seat, or a computer of each level the server lists. */
function seatSelect(seat, catalogue) {
  const choice = seat === 0 || !catalogue.default_level ? "you" : `ai:${catalogue.default_level}`;
  const options = [
    ["you", "You", ""],
    ["open", "Open seat — invite someone", ""],
    ...catalogue.levels.map((l) => [`ai:${l.name}`, `Computer — ${l.name}`, `${l.description} (seed ${l.seed})`]),
  ];
  return h(
    "select",
    { id: `seat-${seat}`, name: `seat-${seat}`, dataset: { testid: `seat-select-${seat}` } },
    options.map(([value, label, title]) => h("option", { value, selected: value === choice, title: title || null }, label)),
  );
}

export async function renderLobby(root) {
  let catalogue = null;
  let levels = { levels: [], default_level: null };
  try {
    levels = await loadLevels();
  } catch (problem) {
    showProblem(problem);
  }
  const form = h(
    "form.lobby-form",
    { "aria-labelledby": "new-game-title", novalidate: true },
    h("h1", { id: "new-game-title" }, "New game"),
    h(
      "fieldset",
      {},
      h("legend", {}, "Rules"),
      field(
        "Scoring",
        h("select", { id: "preset", dataset: { testid: "preset" } }, h("option", { value: "partnership" }, "Partnership (South & North vs West & East)"), h("option", { value: "individual" }, "Individual (everyone for themselves)")),
      ),
      field("Winning score", h("input", { id: "win_score", type: "number", min: 1, max: 100000, value: 500, inputmode: "numeric", required: true })),
      field("Losing score", h("input", { id: "lose_score", type: "number", min: -100000, max: 0, value: -200, inputmode: "numeric" }), "A side at or below it loses; leave empty for none."),
      field("A failed bid scores", h("select", { id: "set_penalty" }, h("option", { value: "negative" }, "minus 10 per trick bid"), h("option", { value: "zero" }, "zero"))),
      field("Points lost per 10 bags", h("input", { id: "bag_penalty", type: "number", min: 0, max: 100000, value: 100, inputmode: "numeric" }), "0 turns the bag penalty off."),
      field("Minimum team bid", h("input", { id: "min_team_bid", type: "number", min: 0, max: 13, value: 4, inputmode: "numeric" }), "Partners together (unless one bids nil)."),
      check("nil", "Nil bids allowed", true),
      check("spades_must_be_broken", "Spades can't be led until broken", true),
    ),
    h(
      "fieldset",
      {},
      h("legend", {}, "Seats"),
      h("p.help", {}, "Play goes South → West → North → East. Choose “You” for at most one seat; without it you watch."),
      [0, 1, 2, 3].map((seat) => field(SEAT_NAMES[seat], seatSelect(seat, levels))),
      check("hints", "Hints (a button that suggests a move)", true),
    ),
    h("button.primary", { type: "submit", dataset: { testid: "create" } }, "Create game"),
  );
  const preset = form.querySelector("#preset");
  preset.addEventListener("change", () => applyPreset(form, catalogue));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    createGame(form);
  });

  const held = heldGames();
  fill(
    root,
    h(
      "div.lobby",
      {},
      h("section.panel", {}, form),
      h(
        "aside.panel",
        { "aria-label": "Other games" },
        held.length
          ? h("section", {}, h("h2", {}, "Your games"), h("ul.held", {}, held.slice(0, 8).map((g) => h("li", {}, h("a", { href: gameUrl(g.gameId) }, `${seatName(g.seat)} in game ${g.gameId.slice(0, 8)}…`)))))
          : null,
        h(
          "form.join",
          { onsubmit: (e) => openLink(e) },
          h("h2", {}, "Join or watch"),
          field("Invite link or game id", h("input", { id: "join", type: "text", autocomplete: "off" })),
          h("button", { type: "submit" }, "Open"),
        ),
      ),
    ),
  );
  try {
    catalogue = await api.rules();
    applyPreset(form, catalogue);
  } catch (problem) {
    showProblem(problem);
  }
}

function applyPreset(form, catalogue) {
  if (!catalogue) return;
  const rules = catalogue.presets[form.querySelector("#preset").value];
  for (const name of ["win_score", "bag_penalty", "min_team_bid"]) form.querySelector(`#${name}`).value = rules[name];
  form.querySelector("#lose_score").value = rules.lose_score === null ? "" : rules.lose_score;
  form.querySelector("#set_penalty").value = rules.set_penalty;
  form.querySelector("#nil").checked = rules.nil;
  form.querySelector("#spades_must_be_broken").checked = rules.spades_must_be_broken;
  form.querySelector("#min_team_bid").closest(".field").hidden = rules.scoring !== "partnership";
}

function readSpec(form) {
  const value = (id) => form.querySelector(`#${id}`).value;
  const partnership = value("preset") === "partnership";
  const rules = {
    preset: value("preset"),
    win_score: Number(value("win_score")),
    lose_score: value("lose_score") === "" ? null : Number(value("lose_score")),
    set_penalty: value("set_penalty"),
    bag_penalty: Number(value("bag_penalty")),
    nil: form.querySelector("#nil").checked,
    spades_must_be_broken: form.querySelector("#spades_must_be_broken").checked,
  };
  if (partnership) rules.min_team_bid = Number(value("min_team_bid"));
  const choices = [0, 1, 2, 3].map((s) => value(`seat-${s}`));
  const seats = choices.map((c) => (c === "you" ? { type: "human" } : c === "open" ? { type: "open" } : { type: "ai", level: c.slice(3) }));
  return { spec: { rules, seats }, you: choices.indexOf("you"), youCount: choices.filter((c) => c === "you").length };
}

async function createGame(form) {
  const { spec, you, youCount } = readSpec(form);
  if (youCount > 1) return showMessage("Choose “You” for one seat at most: each other player joins with an invite link.");
  const hints = form.querySelector("#hints").checked;
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const created = await api.createGame({ ...spec, options: { hints } });
    if (you >= 0) keepSeat(created.game_id, you, created.seats[you].token);
    navigate(gameUrl(created.game_id));
  } catch (problem) {
    showProblem(problem);
    button.disabled = false;
  }
}

function openLink(event) {
  event.preventDefault();
  const text = event.currentTarget.querySelector("#join").value.trim();
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
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(gameId)) return showMessage("That isn't a game link or id.");
  navigate(gameUrl(gameId, seat !== null && /^[0-3]$/.test(seat) ? `&seat=${seat}` : ""));
}

/** The page an invite link opens: take the seat, or watch. */
export async function renderInvite(root, gameId, seat) {
  let view;
  try {
    view = await api.getGame(gameId, null);
  } catch (problem) {
    fill(root, h("section.panel", {}, h("h1", {}, "Can't open this invite"), h("p", {}, describeProblem(problem)), h("a.button", { href: lobbyUrl() }, "Back to the lobby")));
    return;
  }
  const info = view.seats[seat];
  const claimable = info && info.claimable && view.phase !== "game_over";
  const kind = view.rules.scoring === "partnership" ? "Partnership" : "Individual";
  fill(
    root,
    h(
      "section.panel.invite-page",
      { "data-testid": "invite-page" },
      h("h1", {}, claimable ? `You're invited to sit ${seatName(seat)}` : `${seatName(seat)} is taken`),
      h("p", {}, `${kind} Spades, playing to ${view.rules.win_score}.`),
      h("ul.invite-seats", {}, [0, 1, 2, 3].map((s) => h("li", {}, `${seatName(s)}: ${seatKind({ ...view, you: null }, s)}`))),
      claimable
        ? h("button.primary", { type: "button", dataset: { testid: "claim" }, onclick: (e) => claim(e.currentTarget, gameId, seat) }, `Take the ${seatName(seat)} seat`)
        : h("p", {}, "Someone has already taken that seat."),
      h("a.button", { href: gameUrl(gameId), dataset: { testid: "watch" } }, "Watch instead"),
    ),
  );
}

async function claim(button, gameId, seat) {
  button.disabled = true;
  try {
    const claimed = await api.claimSeat(gameId, seat);
    keepSeat(gameId, claimed.seat, claimed.token);
    navigate(gameUrl(gameId));
  } catch (problem) {
    showProblem(problem);
    button.disabled = false;
  }
}
