// Friends: the page of the players you follow (an online dot, the public table they sit at and "Join") and the
// players you blocked; follow and block buttons for a player (the profile, the game's end); the picker that
// invites a followed player to your table; the invite notices in the lobby ("Join" / "Dismiss"), read every
// half minute with the player token, so on whichever device the player is signed in.

import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { askName, currentPlayer, playerToken } from "./identity.js";
import { describeProblem, showProblem } from "./messages.js";
import { followLink, friendsUrl, gameUrl, lobbyUrl, navigate, profileUrl } from "./router.js";
import { heldSeat } from "./seats.js";
import { seatName } from "./seating.js";

const NOTICES_MS = 30_000; // how often an open lobby reads its notices

/** The followed players in the page's order (pure): online first, at a table first among them, then by name. */
export function orderFollowing(list) {
  const rank = (f) => (f.online ? (f.game_id ? 0 : 1) : 2);
  return [...list].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

/** The catalogue key of a followed player's status (pure). */
export function statusKey(followed) {
  if (followed.game_id) return "friends.status.atTable";
  return followed.online ? "friends.status.online" : "friends.status.offline";
}

/** Whom you follow and whom you blocked, as two sets of ids (empty without a name). */
async function relations() {
  const token = playerToken();
  if (!token) return { following: new Set(), blocks: new Set() };
  const [following, blocks] = await Promise.all([api.following(token), api.blocks(token)]);
  return { following: new Set(following.following.map((f) => f.id)), blocks: new Set(blocks.blocks.map((b) => b.id)) };
}

let shared = null; // one read of your lists for the buttons drawn together (a game's end draws three)

/** "Follow" / "Unfollow" and "Block" / "Unblock" for another player (nothing for yourself or without a name). */
export function relationButtons(playerId) {
  const me = currentPlayer();
  const box = h("span.relation-buttons", { dataset: { testid: `relations-${playerId}` } });
  if (!me || me.id === playerId) return box;
  if (!shared) {
    shared = relations();
    setTimeout(() => (shared = null), 2000);
  }
  const draw = (state) => {
    const follows = state.following.has(playerId);
    const blocked = state.blocks.has(playerId);
    const act = (call, change) => async (event) => {
      event.currentTarget.disabled = true;
      try {
        await call(playerToken(), playerId);
        change(state);
      } catch (problem) {
        showProblem(problem);
      }
      draw(state);
    };
    box.replaceChildren(
      blocked
        ? null
        : h(follows ? "button.small" : "button.small.primary", { type: "button", dataset: { testid: follows ? "unfollow" : "follow" }, onclick: act(follows ? api.unfollow : api.follow, (s) => (follows ? s.following.delete(playerId) : s.following.add(playerId))) }, t(follows ? "friends.unfollow" : "friends.follow")),
      h("button.small.quiet", { type: "button", dataset: { testid: blocked ? "unblock" : "block" }, onclick: act(blocked ? api.unblock : api.block, (s) => {
        if (blocked) s.blocks.delete(playerId);
        else {
          s.blocks.add(playerId);
          s.following.delete(playerId);
        }
      }) }, t(blocked ? "friends.unblock" : "friends.block")),
    );
  };
  shared.then(draw, () => box.replaceChildren());
  return box;
}

/** The people at a finished table you may follow or block: their names with the buttons. */
export function tablePeople(view) {
  const me = currentPlayer();
  const others = view.seats.filter((s) => s.player && s.player.kind !== "computer" && (!me || s.player.id !== me.id));
  if (!me || !others.length) return null;
  return h(
    "section.table-people",
    { dataset: { testid: "table-people" } },
    h("h3", {}, t("friends.atThisTable")),
    h("ul", {}, others.map((s) => h("li", {}, h("a", { href: profileUrl(s.player.id), onclick: followLink }, s.player.name), " ", relationButtons(s.player.id)))),
  );
}

const dot = (online) => h("span.online-dot", { dataset: { online: String(Boolean(online)) }, "aria-hidden": "true" });

const PICKER_MS = 30_000; // the picker's list of friends is read again after this long (the table redraws often)
const picked = { at: 0, list: null, invited: new Set() }; // the list read last, and who was invited to which game

async function followedNow(token) {
  if (!picked.list || performance.now() - picked.at > PICKER_MS) {
    picked.list = api.following(token).then((r) => r.following);
    picked.at = performance.now();
    picked.list.catch(() => (picked.list = null));
  }
  return picked.list;
}

/** "Invite a friend" at your table: your followed players, each with "Invite" (your seat's token and your name);
 * null when this page holds no seat of the game or has no name. */
export function friendPicker(gameId) {
  const token = playerToken();
  const seat = heldSeat(gameId);
  if (!token || !seat) return null;
  const list = h("ul.friend-list", {}, h("li.note", {}, t("friends.loading")));
  const row = (f) => {
    const key = `${gameId}/${f.id}`;
    const done = picked.invited.has(key);
    const button = h("button.small.primary", { type: "button", disabled: done, dataset: { testid: `invite-friend-${f.id}` } }, t(done ? "friends.invite.sent" : "friends.invite.send"));
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        await api.invite(gameId, seat.token, token, f.id);
        picked.invited.add(key);
        button.textContent = t("friends.invite.sent");
      } catch (problem) {
        button.disabled = false;
        showProblem(problem);
      }
    });
    return h("li.friend-row", {}, dot(f.online), h("span.friend-who", {}, h("span.friend-name", {}, f.name)), button);
  };
  followedNow(token).then(
    (following) => list.replaceChildren(...(following.length ? orderFollowing(following).map(row) : [h("li.note", {}, t("friends.invite.none"))])),
    (problem) => list.replaceChildren(h("li.note", {}, describeProblem(problem))),
  );
  return h("section.friend-picker", { dataset: { testid: "friend-picker" } }, h("h3", {}, t("friends.invite.title")), list);
}

/** The invites in your lobby; read now and every half minute while the panel is on the page. */
export function noticesPanel() {
  const panel = h("section.notices", { "aria-live": "polite", "aria-label": t("friends.notices"), dataset: { testid: "notices" }, hidden: true });
  const draw = (notices) => {
    panel.hidden = !notices.length;
    panel.replaceChildren(...notices.map((n) => h(
      "div.notice",
      { dataset: { testid: "notice" } },
      h("span.notice-icon", { "aria-hidden": "true" }, "✉"),
      h("p.notice-text", {}, t("friends.notice.invite", { name: n.sender.name, seat: seatName(n.seat) })),
      h("span.notice-actions", {},
        h("button.small.primary", { type: "button", dataset: { testid: "notice-join" }, onclick: () => answer(n, true) }, t("friends.notice.join")),
        h("button.small", { type: "button", dataset: { testid: "notice-dismiss" }, onclick: () => answer(n, false) }, t("friends.notice.dismiss"))),
    )));
  };
  let shown = [];
  const answer = async (notice, join) => {
    shown = shown.filter((n) => n.id !== notice.id);
    draw(shown);
    const dismissed = api.dismissNotice(playerToken(), notice.id).catch(() => {});
    // joining waits for the dismissal: a page load (an update waiting) would cancel it, and every device
    // should have stopped showing the invite by the time the table opens
    if (!join) return;
    await dismissed;
    navigate(gameUrl(notice.game_id, `&seat=${notice.seat}`));
  };
  const read = async () => {
    const token = playerToken();
    if (panel.dataset.read && !panel.isConnected) return; // the page changed: stop reading
    panel.dataset.read = "1";
    if (token) {
      try {
        shown = (await api.notices(token)).notices;
        draw(shown);
      } catch {
        /* a passing failure: the next read */
      }
    }
    setTimeout(read, NOTICES_MS);
  };
  read();
  return panel;
}

/** The friends page; {stop()}. */
export function renderFriends(root) {
  const page = { stopped: false, stop: () => (page.stopped = true) };
  const crumbs = h("nav.crumbs", { "aria-label": t("players.pages") }, h("a", { href: lobbyUrl(), onclick: followLink }, t("players.lobby")));
  if (!currentPlayer()) {
    fill(root, h("div.friends-page", { dataset: { testid: "friends" } }, crumbs, h("section.panel", {}, h("h1", {}, t("friends.title")), h("p", {}, t("friends.noName")),
      h("button.primary", { type: "button", onclick: async () => (await askName()) && navigate(friendsUrl()) }, t("players.name.choose")))));
    return page;
  }
  fill(root, h("p.loading", {}, t("friends.loading")));
  loadFriends(root, page, crumbs);
  return page;
}

async function loadFriends(root, page, crumbs) {
  const token = playerToken();
  let following;
  let blocks;
  try {
    [following, blocks] = await Promise.all([api.following(token), api.blocks(token)]);
  } catch (problem) {
    if (!page.stopped) fill(root, h("section.panel", {}, h("h1", {}, t("friends.title")), h("p", {}, describeProblem(problem))));
    return;
  }
  if (page.stopped) return;
  const again = () => loadFriends(root, page, crumbs);
  const change = (call, id) => async () => {
    try {
      await call(token, id);
    } catch (problem) {
      showProblem(problem);
    }
    again();
  };
  const online = following.following.filter((f) => f.online).length;
  const rows = orderFollowing(following.following).map((f) => h(
    "li.friend-row",
    { dataset: { testid: `friend-${f.id}`, online: String(f.online) } },
    dot(f.online),
    h("span.friend-who", {}, h("a.friend-name", { href: profileUrl(f.id), onclick: followLink }, f.name), h("small.friend-status", {}, t(statusKey(f)))),
    f.game_id ? h("button.small.primary", { type: "button", dataset: { testid: "friend-join" }, onclick: () => navigate(gameUrl(f.game_id)) }, t("friends.join")) : null,
    h("button.small.quiet", { type: "button", dataset: { testid: "friend-unfollow" }, onclick: change(api.unfollow, f.id) }, t("friends.unfollow")),
  ));
  fill(
    root,
    h(
      "div.friends-page",
      { dataset: { testid: "friends" } },
      crumbs,
      noticesPanel(),
      h(
        "section.panel.friends-list",
        { "aria-labelledby": "friends-title" },
        h("h1", { id: "friends-title" }, t("friends.title")),
        h("p.lead", {}, t("friends.summary", { count: following.following.length, online })),
        rows.length ? h("ul.friend-list", {}, rows) : h("p.note", {}, t("friends.empty")),
      ),
      h(
        "section.panel.blocked-list",
        { "aria-labelledby": "blocked-title" },
        h("h2", { id: "blocked-title" }, t("friends.blocked")),
        h("p.note", {}, t("friends.blockedHelp")),
        blocks.blocks.length
          ? h("ul.friend-list", {}, blocks.blocks.map((b) => h("li.friend-row", { dataset: { testid: `blocked-${b.id}` } }, h("span.friend-who", {}, h("a.friend-name", { href: profileUrl(b.id), onclick: followLink }, b.name)),
            h("button.small", { type: "button", dataset: { testid: "friend-unblock" }, onclick: change(api.unblock, b.id) }, t("friends.unblock")))))
          : h("p.note", {}, t("friends.noBlocks")),
      ),
    ),
  );
}
