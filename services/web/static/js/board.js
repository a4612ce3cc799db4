// Drawing a game (game.js's state) onto the page: the table (with its people: tablelife.js), the top
// bar's buttons, the focus kept where it was (or put on a move on your turn), and "your turn" said
// once (and announced while the tab is hidden).

import { fill } from "./dom.js";
import { drawGameBar, showInvites, showRules, showScores } from "./gamebar.js";
import { tablePeople } from "./friends.js";
import { ratingsBox, watchRatings } from "./gameratings.js";
import { ratedInPlay, ratedMark } from "./fairplay.js";
import { hintsAllowed } from "./hint.js";
import { t } from "./i18n.js";
import { showToast } from "./messages.js";
import { sayTurn } from "./status.js";
import { renderGameOver } from "./summary.js";
import { renderTable, turnText } from "./table.js";
import { afterDraw, peopleUi, rematchBox, statusExtras } from "./tablelife.js";
import { showRejoin } from "./rejoin.js";
import { playersSeat, takeOffer } from "./seatfollow.js";

/** Draw `game` (a Game) now. */
export function drawGame(game) {
  const view = game.view;
  const active = document.activeElement;
  const focusKey = game.focusNext || (active && game.root.contains(active) && active.dataset ? active.dataset.focusKey : null);
  game.focusNext = null;
  watchRatings(game); // at the end: each player's rating change, once the server has rated the game
  const ready = !game.derived && !game.pending && Boolean(game.token);
  const live = !game.unreachable && !game.unread; // the server answers, and the view was read again since it did not
  const canMove = ready && live;
  const blocked = ready && !live ? t("offline.move") : null; // the move controls shown, disabled, and why
  const onReview = game.token && !ratedInPlay(view) ? (round) => game.review(round) : null; // refused while rated
  const table = renderTable(view, {
    gameId: game.gameId,
    turn: view.turn,
    shownTrick: game.shownTrick,
    canMove,
    blocked,
    onPlay: (card, el) => game.move({ card }, el),
    onBid: (bid) => game.move({ bid }),
    onBlind: (bid) => game.move({ blind: bid }),
    onLook: () => game.move({ look: true }),
    passSelected: game.passPick,
    onTogglePass: (card) => game.togglePass(card),
    onPass: (cards) => game.move({ cards }),
    onRefused: (text) => showToast(text),
    hint: game.hint,
    hintPending: game.hintPending,
    hintsAllowed: hintsAllowed(view),
    ratedNote: view.you !== null && view.fair_play ? ratedMark(view) : null,
    onHint: () => game.askHint(),
    lastTrickOpen: game.lastTrickOpen,
    focusKey,
    onCopy: copy,
    gameOver: view.phase === "game_over" && !game.derived ? renderGameOver(view, { onNewGame: () => game.newGame(), onReview, extra: rematchBox(game), ratings: [ratingsBox(game), tablePeople(view)] }) : null,
    people: peopleUi(game),
    statusExtras: game.kept ? null : statusExtras(game), // the people's buttons need the network
    takeOffer: game.token ? null : offerOf(game),
    kept: game.kept,
  });
  fill(game.root, table);
  drawGameBar({
    view,
    lastTrickOpen: game.lastTrickOpen,
    onToggleLastTrick: () => {
      game.lastTrickOpen = !game.lastTrickOpen;
      game.render();
    },
    onScores: () => showScores(game.view, onReview),
    onRules: () => showRules(game.view),
    onInvite: () => showInvites(game.view, game.gameId, copy),
    onLeave: () => game.leave(),
    onRejoin: game.token && view.you !== null && view.phase !== "game_over" ? () => showRejoin(game.gameId, view.you, game.token, copy) : null,
  });
  const myTurn = canMove && view.turn === view.you && view.you !== null;
  restoreFocus(game.root, focusKey, myTurn);
  const playing = myTurn && ["bidding", "passing", "playing"].includes(view.phase);
  sayTurn(view.phase === "game_over" ? turnText(view, null) : playing ? turnText(view, view.turn) : "");
  afterDraw(game, { myTurn: playing, text: playing ? turnText(view, view.turn) : "" });
}

/** Watching a game where your player holds a seat (played on another device, or released: no device
 * holds it): "Take my seat here". */
function offerOf(game) {
  const seat = playersSeat(game.view);
  return seat === null ? null : takeOffer(seat, (button) => game.takeHere(button), game.handedOff === "released");
}

/** Keep keyboard focus across a redraw; on your turn, put it on a move if it was nowhere. */
function restoreFocus(root, focusKey, myTurn) {
  const again = focusKey && root.querySelector(`[data-focus-key="${focusKey}"]:not([disabled])`);
  if (again) return again.focus({ preventScroll: true });
  const nowhere = document.activeElement === document.body || document.activeElement === null;
  if (myTurn && nowhere && !document.querySelector("dialog[open]")) {
    const stop = root.querySelector(".blind [data-focus-key=look], .bid-buttons [tabindex='0'], .hand [tabindex='0']");
    if (stop) stop.focus({ preventScroll: true });
  }
}

function copy(text) {
  if (navigator.clipboard) navigator.clipboard.writeText(text).then(() => showToast(t("table.invite.copied")), () => {});
}
