// A player's page (#/players/<id>): the name, a rating per board with its rank, the stats a Spades
// player keeps (games, wins, contracts made, nils bid and made, bags per round, sets), the rating
// over time as a chart (chart.js) with its figures in a table, and the recent games, each with its final
// score, whom it was played with and against, won or lost, and a link to its replay. Read from
// GET /v1/players/{id} and GET /v1/players/{id}/games.

import { api } from "./api.js";
import { relationButtons } from "./friends.js";
import { ratingChart } from "./chart.js";
import { fill, h } from "./dom.js";
import { askName, currentPlayer, initials, withPlayer } from "./identity.js";
import { formatDate, formatList, formatNumber, t } from "./i18n.js";
import { describeProblem } from "./messages.js";
import { BOARD_CODES, boardName, formatChange, formatRating, kindName, levelName, playerName, provisionalWhy, ratingMark } from "./playertext.js";
import { accountUrl, followLink, leaderboardsUrl, lobbyUrl, replayUrl } from "./router.js";
import { seatName } from "./seating.js";

export const BOARDS = Object.fromEntries(BOARD_CODES.map((b) => [b, b])); // the boards' codes (boardName() names them)
const PAGE = 50; // games per request
const CHART_PAGES = 4; // the chart reads at most this many pages of games
const LISTED = 15; // recent games listed before "Show more"

const pct = (part, whole) => (whole ? formatNumber(part / whole, { style: "percent" }) : "—");
const WHEN = { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" }; // a game's end in the list

/** A player's name on its page: a computer level's in the page's language. */
function shownName(player) {
  return player.kind === "computer" ? levelName(player.name) : player.name;
}

/** The rating after each rated game on `board`, oldest first, from the start (pure). */
export function ratingSeries(games, board) {
  const rated = games.filter((g) => g.rated && g.board === board && typeof g.rating_after === "number").reverse();
  if (!rated.length) return [];
  const first = rated[0];
  const start = typeof first.rating_before === "number" ? first.rating_before : first.rating_after - (first.change || 0);
  return [{ rating: start, at: null, game: null }, ...rated.map((g) => ({ rating: g.rating_after, at: g.ended_at, game: g.game_id }))];
}

/** The accuracy tile (pure): the share of moves within a few points of expert's best in scored rated games,
 * and the points given away per move; null before any game is scored. */
export function accuracyTile(accuracy) {
  if (!accuracy || !accuracy.games || accuracy.accurate_share === null) return null;
  const away = formatNumber(Number(accuracy.mean_given_away || 0), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return {
    label: t("players.stats.accuracy"),
    value: formatNumber(accuracy.accurate_share, { style: "percent" }),
    detail: t("players.stats.accuracyDetail", { away, count: accuracy.games }),
    testid: "stat-accuracy",
  };
}

/** The stats as tiles (pure): [{label, value, detail, testid}]. */
export function statTiles(stats) {
  const s = { games: 0, wins: 0, contracts_bid: 0, contracts_made: 0, sets: 0, nils_bid: 0, nils_made: 0, bags_per_round: 0, rounds: 0, ...stats };
  return [
    { label: t("players.stats.games"), value: formatNumber(s.games), detail: t("players.stats.rounds", { count: s.rounds }), testid: "stat-games" },
    { label: t("players.stats.wins"), value: formatNumber(s.wins), detail: pct(s.wins, s.games), testid: "stat-wins" },
    { label: t("players.stats.contracts"), value: formatNumber(s.contracts_made), detail: t("players.stats.contractsOf", { bid: s.contracts_bid, share: pct(s.contracts_made, s.contracts_bid) }), testid: "stat-contracts" },
    { label: t("players.stats.sets"), value: formatNumber(s.sets), detail: t("players.stats.setsDetail"), testid: "stat-sets" },
    { label: t("players.stats.nils"), value: formatNumber(s.nils_made), detail: t("players.stats.nilsOf", { bid: s.nils_bid }), testid: "stat-nils" },
    { label: t("players.stats.bags"), value: formatNumber(Number(s.bags_per_round || 0), { minimumFractionDigits: 2, maximumFractionDigits: 2 }), detail: t("players.stats.bagsDetail"), testid: "stat-bags" },
  ];
}

/** The rating cards; none while the fair-play watch holds the ratings: the player is told why, others only that
 * they are not shown while a review is open (the server says `hidden` to them). */
function ratingCards(player) {
  if (player.rating_hold) return h("p.note", { dataset: { testid: "rating-hold" } }, t(`players.profile.hold.${player.rating_hold}`));
  const boards = Object.keys(BOARDS).filter((b) => player.ratings && player.ratings[b]);
  if (!boards.length) return h("p.note", { dataset: { testid: "no-rating" } }, t("players.profile.noRating"));
  return h(
    "div.rating-cards",
    {},
    boards.map((board) => {
      const r = player.ratings[board];
      return h(
        "div.rating-card",
        { dataset: { testid: `rating-${board}` } },
        h("span.rating-board", {}, boardName(board)),
        h("span.rating-value", {}, ratingMark(r.rating, r.provisional)),
        h(
          "span.rating-detail",
          {},
          r.rank ? h("a", { href: leaderboardsUrl(board, player.kind), onclick: followLink }, t("players.rank", { rank: r.rank })) : null,
          r.rank ? " · " : null,
          t("players.games", { count: r.games }),
        ),
        r.provisional ? h("span.rating-provisional", { dataset: { testid: `provisional-${board}` } }, provisionalWhy()) : null,
      );
    }),
  );
}

function statsGrid(player) {
  return h(
    "dl.stat-grid",
    { dataset: { testid: "stats" } },
    [...statTiles(player.stats), accuracyTile(player.accuracy)].filter(Boolean).map((t) => h("div.stat", { dataset: { testid: t.testid } }, h("dt", {}, t.label), h("dd", {}, h("span.stat-value", {}, t.value), h("span.stat-detail", {}, t.detail)))),
  );
}

/** The figures of the chart, for whoever cannot see it (and anyone who wants the numbers). */
function figuresTable(points, board) {
  return h(
    "details.chart-figures",
    {},
    h("summary", {}, t("players.chart.figures")),
    h(
      "table",
      { dataset: { testid: "chart-table" } },
      h("caption", {}, t(`players.chart.caption.${board}`)),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("players.chart.game")), h("th", { scope: "col" }, t("players.chart.date")), h("th", { scope: "col" }, t("players.rating")))),
      h(
        "tbody",
        {},
        points.map((p, i) => h("tr", {}, h("th", { scope: "row" }, i === 0 ? t("players.chart.start") : formatNumber(i)), h("td", {}, p.at ? formatDate(p.at, { dateStyle: "medium", timeStyle: "short" }) : "—"), h("td", {}, formatRating(p.rating)))),
      ),
    ),
  );
}

/** The chart section: a board switch when there are two, the chart and its figures. */
function chartSection(games, player) {
  const boards = Object.keys(BOARDS).filter((b) => ratingSeries(games, b).length);
  const section = h("section.panel.profile-chart", { "aria-labelledby": "chart-title" }, h("h2", { id: "chart-title" }, t("players.chart.heading")));
  if (!boards.length || player.rating_hold) {
    section.append(h("p.note", { dataset: { testid: "no-chart" } }, t(player.rating_hold ? "players.chart.held" : "players.chart.none")));
    return section;
  }
  const body = h("div.chart-body");
  const narrow = matchMedia("(max-width: 600px)").matches;
  const draw = (board) => {
    const points = ratingSeries(games, board);
    fill(body, ratingChart(points, { id: `chart-${board}`, title: t(`players.chart.title.${board}`, { name: shownName(player) }), narrow }), figuresTable(points, board));
    for (const b of switches) b.setAttribute("aria-pressed", b.dataset.board === board ? "true" : "false");
  };
  const switches = boards.length > 1 ? boards.map((b) => h("button.small.board-switch", { type: "button", dataset: { board: b, testid: `chart-board-${b}` }, onclick: () => draw(b) }, boardName(b))) : [];
  if (switches.length) section.append(h("div.board-switches", { role: "group", "aria-label": t("players.board") }, switches));
  section.append(body);
  draw(boards[0]);
  return section;
}

/** The game's final score from the player's seat (pure): "520–310" (its side first) in partnership play, the
 * seat's own points in individual play; null when the server kept none. */
export function gameScore(game) {
  const scores = game.scores;
  if (!Array.isArray(scores) || scores.length < 2) return null;
  if (game.board === "individual" || scores.length === 4) return t("players.game.points", { count: scores[game.seat] });
  const side = game.seat % 2;
  return t("players.game.score", { us: scores[side], them: scores[1 - side] });
}

/** Whom the game was played with and against (pure): "with Computer · hard · against Bo and Computer · easy";
 * in individual play only "against …"; null when the game's record (who sat where) is gone. */
export function gamePeople(game) {
  const players = game.players;
  if (!Array.isArray(players) || players.length !== 4) return null;
  const name = (seat) => (players[seat] ? playerName(players[seat]) : t("players.game.nobody"));
  const seat = game.seat;
  if (game.board === "individual") return t("players.game.against", { opponents: formatList([1, 2, 3].map((n) => name((seat + n) % 4))) });
  return t("players.game.withAgainst", { partner: name((seat + 2) % 4), opponents: formatList([name((seat + 1) % 4), name((seat + 3) % 4)]) });
}

function gameItem(game) {
  const change = typeof game.change === "number" ? game.change : null;
  const score = gameScore(game);
  const people = gamePeople(game);
  return h(
    "li.game-item",
    { dataset: { testid: `game-${game.game_id}` } },
    h("span", { class: `game-result ${game.won ? "won" : "lost"}` }, t(game.won ? "players.game.won" : "players.game.lost")),
    h(
      "span.game-what",
      {},
      h(
        "span.game-board",
        {},
        score ? [h("span.visually-hidden", {}, `${t("players.game.finalScore")} `), h("span.game-score", { dataset: { testid: `score-${game.game_id}` } }, score), " · "] : null,
        `${boardName(game.board)} · ${seatName(game.seat)}`,
      ),
      people ? h("span.game-people", { dataset: { testid: `people-${game.game_id}` } }, people) : null,
      h("time.game-when", { datetime: game.ended_at }, formatDate(game.ended_at, WHEN)),
    ),
    h(
      "span.game-rating",
      {},
      game.rated && typeof game.rating_after === "number"
        ? [h("span.game-after", {}, ratingMark(game.rating_after, game.provisional)), change !== null ? h("span", { class: `game-change ${change > 0 ? "up" : change < 0 ? "down" : "same"}` }, formatChange(change)) : null]
        : h("span.game-unrated", {}, t(game.rated ? "players.game.ratedHeld" : "players.game.unrated")),
    ),
    h("a.button.small-link", { href: replayUrl(game.game_id, game.seat), onclick: followLink, dataset: { testid: `replay-${game.game_id}` }, "aria-label": t("players.game.replayLabel", { when: formatDate(game.ended_at, { dateStyle: "medium", timeStyle: "short" }) }) }, t("players.replay")),
  );
}

function gamesSection(games, more) {
  const list = h("ul.game-list", { dataset: { testid: "games" } });
  const section = h("section.panel.profile-games", { "aria-labelledby": "games-title" }, h("h2", { id: "games-title" }, t("players.games.heading")), list);
  if (!games.length) {
    list.replaceWith(h("p.note", { dataset: { testid: "no-games" } }, t("players.games.none")));
    return section;
  }
  let shown = 0;
  const button = h("button.small", { type: "button", dataset: { testid: "more-games" }, onclick: () => showMore() }, t("players.games.more"));
  const showMore = async () => {
    if (shown >= games.length && more) {
      button.disabled = true;
      await more(games);
      button.disabled = false;
    }
    const next = games.slice(shown, shown + LISTED);
    list.append(...next.map(gameItem));
    shown += next.length;
    button.hidden = shown >= games.length && !more.available();
  };
  section.append(button);
  showMore();
  return section;
}

/** The profile page; {stop()}. */
export function renderProfile(root, playerId) {
  const page = { stopped: false, stop: () => (page.stopped = true) };
  fill(root, h("p.loading", {}, t("players.profile.loading")));
  load(root, playerId, page);
  return page;
}

async function load(root, playerId, page) {
  let player;
  let games = [];
  let next = null;
  try {
    const own = Boolean(currentPlayer()) && currentPlayer().id === playerId;
    player = await withPlayer((token) => api.getPlayer(playerId, own ? token : null)); // your own: your hold told
    const first = await api.playerGames(playerId, { limit: PAGE });
    games = first.games;
    next = first.next;
    for (let i = 1; i < CHART_PAGES && next; i += 1) {
      const more = await api.playerGames(playerId, { limit: PAGE, cursor: next });
      games.push(...more.games);
      next = more.next;
    }
  } catch (problem) {
    if (page.stopped) return;
    const gone = problem.code === "player_not_found" || problem.status === 404;
    fill(
      root,
      h(
        "section.panel.profile-missing",
        { dataset: { testid: "profile-missing" } },
        h("h1", {}, t(gone ? "players.profile.gone" : "players.profile.failed")),
        h("p", {}, gone ? t("players.profile.goneHelp") : describeProblem(problem)),
        h("a.button", { href: lobbyUrl(), onclick: followLink }, t("players.backToLobby")),
      ),
    );
    return;
  }
  if (page.stopped) return;
  const more = async (list) => {
    if (!next) return;
    const page2 = await api.playerGames(playerId, { limit: PAGE, cursor: next });
    list.push(...page2.games);
    next = page2.next;
  };
  more.available = () => Boolean(next);
  const mine = currentPlayer() && currentPlayer().id === player.id;
  const nameEl = h("h1.profile-name", { dataset: { testid: "profile-name" } }, shownName(player));
  const header = h(
    "section.panel.profile-head",
    { "aria-labelledby": "profile-name-heading" },
    h("span.profile-avatar", { "aria-hidden": "true", dataset: { kind: player.kind } }, initials(shownName(player))),
    h(
      "div.profile-who",
      {},
      nameEl,
      h(
        "p.profile-meta",
        {},
        h("span.kind-badge", { dataset: { kind: player.kind } }, kindName(player.kind)),
        player.created_at ? ` · ${t("players.profile.since", { date: formatDate(player.created_at, { month: "short", year: "numeric" }) })}` : null,
        mine ? h("span.profile-you", {}, ` · ${t("players.profile.you")}`) : null,
      ),
    ),
    mine
      ? h("button.small", { type: "button", dataset: { testid: "profile-rename" }, onclick: async () => {
          const renamed = await askName({ rename: true });
          if (renamed) nameEl.textContent = renamed.name;
        } }, t("players.name.change"))
      : relationButtons(player.id),
    mine ? h("a.button.profile-account", { href: accountUrl(), onclick: followLink, dataset: { testid: "profile-account" } }, t("players.profile.account")) : null,
    ratingCards(player),
  );
  nameEl.id = "profile-name-heading";
  fill(
    root,
    h(
      "div.profile-page",
      { dataset: { testid: "profile" } },
      h("nav.crumbs", { "aria-label": t("players.pages") }, h("a", { href: lobbyUrl(), onclick: followLink }, t("players.lobby")), h("a", { href: leaderboardsUrl(null, player.kind), onclick: followLink }, t("players.leaderboards"))),
      header,
      h("section.panel.profile-stats", { "aria-labelledby": "stats-title" }, h("h2", { id: "stats-title" }, t("players.stats.heading")), statsGrid(player)),
      chartSection(games, player),
      gamesSection(games, more),
    ),
  );
}
