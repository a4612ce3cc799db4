"""The client's offline logic, run in node (no server, no browser) with the browser's pieces it touches
stood in for: a Map as localStorage, EventTargets as window and document, `fetch` answered by the test and
timers that fire only when the test says. The seat's last view kept for an offline start (lastview.js: that
seat's only, the latest games only, bounded; forgotten with the seat, at the game's end and at sign-out);
a page that could not load for want of the network opened again as soon as the server answers
(network.js: the browser's `online`, the page shown again, any answered call), never by polling while the
server answers; and a game's feed waiting for the network woken by any answered call, while a wait the
server asked for (Retry-After) is kept (transport.js); the server known out of reach (network.js `onOffline`: a
game sends no move meanwhile) from the browser's `offline` or a call that found no server, never from a stream's
failure alone, and back at any answer. Nothing here waits on time: a timer that would have
retried is seen pending, never fired."""

from __future__ import annotations

from tests.web.test_people_logic import run

# The browser as these modules see it. Timers are kept in `timers` and never fire by themselves; `fetch`
# answers with `answer(path, init)`, which a test sets; `settle()` lets every promise chain run.
BROWSER = """
class MemoryStorage {
  constructor() { this.items = new Map(); }
  get length() { return this.items.size; }
  key(i) { return [...this.items.keys()][i] ?? null; }
  getItem(k) { return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) { this.items.set(k, String(v)); }
  removeItem(k) { this.items.delete(k); }
}
globalThis.localStorage = new MemoryStorage();
globalThis.window = new EventTarget();
globalThis.document = Object.assign(new EventTarget(), { visibilityState: "visible", getElementById: () => null });
const timers = new Map();
let nextTimer = 1;
globalThis.setTimeout = (fn, ms) => { timers.set(nextTimer, { fn, ms }); return nextTimer++; };
globalThis.clearTimeout = (id) => timers.delete(id);
const fetched = [];
let answer = () => { throw new TypeError("Failed to fetch"); };
globalThis.fetch = async (path, init = {}) => { fetched.push(path); return answer(path, init); };
const json = (body, status = 200, headers = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
const settle = async () => { for (let i = 0; i < 30; i += 1) await new Promise((resolve) => setImmediate(resolve)); };
const pending = () => [...timers.values()].map((timer) => timer.ms);
"""

VIEW = """const view = (game, you, extra = {}) => ({ game_id: game, you, phase: "bidding", version: 3, hand: ["AS", "KS"], ...extra });"""


def test_only_the_held_seats_own_view_of_the_latest_games_is_kept(tmp_path):
    got = run(
        tmp_path,
        BROWSER
        + VIEW
        + """
        const v = await js("lastview.js");
        let clock = 1_000;
        Date.now = () => (clock += 1);
        const kept = () => Object.keys(Object.fromEntries(localStorage.items)).filter((k) => k.startsWith("spades.view.")).sort();
        const results = {
          keptOwn: v.keepView("g1", 2, view("g1", 2)),
          notItsSeat: v.keepView("g1", 1, view("g1", 2)),
          watching: v.keepView("g1", null, view("g1", null)),
          over: v.keepView("g1", 2, view("g1", 2, { phase: "game_over" })),
        };
        results.read = v.lastView("g1", 2);
        results.otherSeat = v.lastView("g1", 1);
        v.keepView("g1", 3, view("g1", 3)); // the device holds another seat of it now: the old one goes
        results.afterNewSeat = kept();
        for (const game of ["g2", "g3", "g4"]) v.keepView(game, 0, view(game, 0));
        results.latestThree = kept();
        v.keepView("g2", 0, view("g2", 0, { version: 9 })); // read again: the newest
        v.keepView("g5", 1, view("g5", 1));
        results.afterRead = kept();
        results.tooLong = v.keepView("g2", 0, view("g2", 0, { pad: "x".repeat(v.MAX_CHARS) }));
        results.tooLongLeaves = kept();
        localStorage.setItem("spades.view.g9.0", "{not json");
        results.broken = v.lastView("g9", 0);
        v.forgetView("g5");
        results.forgotten = kept();
        v.forgetViews();
        results.none = kept();
        Date.now = () => 7; // kept in the same millisecond: the one just kept stays all the same
        for (const game of ["h1", "h2", "h3", "h4"]) v.keepView(game, 0, view(game, 0));
        results.sameMs = kept();
        console.log(JSON.stringify(results));
        """,
    )
    assert got["keptOwn"] is True
    assert got["notItsSeat"] is got["watching"] is got["over"] is False
    assert got["read"]["you"] == 2 and got["read"]["hand"] == ["AS", "KS"] and got["otherSeat"] is None
    assert got["afterNewSeat"] == ["spades.view.g1.3"]
    assert got["latestThree"] == ["spades.view.g2.0", "spades.view.g3.0", "spades.view.g4.0"]
    assert got["afterRead"] == ["spades.view.g2.0", "spades.view.g4.0", "spades.view.g5.1"]
    assert got["tooLong"] is False and got["tooLongLeaves"] == ["spades.view.g4.0", "spades.view.g5.1"]
    assert got["broken"] is None
    assert got["forgotten"] == ["spades.view.g4.0", "spades.view.g9.0"]
    assert got["none"] == []
    assert "spades.view.h4.0" in got["sameMs"] and len(got["sameMs"]) == 3


def test_the_kept_view_goes_with_the_seat_the_games_end_and_a_sign_out(tmp_path):
    got = run(
        tmp_path,
        BROWSER
        + VIEW
        + """
        const v = await js("lastview.js");
        const seats = await js("seats.js");
        const identity = await js("identity.js");
        const keep = (game) => { seats.keepSeat(game, 0, `tok-${game}`); v.keepView(game, 0, view(game, 0)); };
        ["left", "over", "a"].forEach(keep);
        seats.forgetSeat("left");
        seats.markFinished("over");
        keep("b");
        const afterSeatAndEnd = ["left", "over", "a", "b"].map((g) => v.lastView(g, 0) !== null);
        const seatsKept = seats.heldGames().map((g) => g.gameId).sort();
        identity.keepPlayer({ id: "p1", name: "Ana", kind: "person" }, "sps_x");
        identity.forgetPlayer();
        const afterSignOut = ["a", "b"].map((g) => v.lastView(g, 0) !== null);
        console.log(JSON.stringify({ afterSeatAndEnd, seatsKept, afterSignOut, stillHeld: seats.heldSeat("a") !== null }));
        """,
    )
    assert got["afterSeatAndEnd"] == [False, False, True, True]
    assert got["seatsKept"] == ["a", "b", "over"]
    assert got["afterSignOut"] == [False, False]
    assert got["stillHeld"] is True  # signing out forgets the tables kept, not the seats' tokens


def test_a_page_that_could_not_load_opens_again_as_soon_as_the_server_answers(tmp_path):
    got = run(
        tmp_path,
        BROWSER
        + """
        const { api } = await js("api.js");
        const network = await js("network.js");
        const router = await js("router.js");
        let refreshed = 0;
        let retried = 0;
        router.onRoute(() => (refreshed += 1));
        network.watchNetwork();
        const steps = {};
        await api.getGame("g1", null).catch((problem) => (steps.failed = problem.status));
        const untilBack = network.whenBack(() => (retried += 1));
        steps.waiting = { fetched: fetched.length, pending: pending() };
        answer = () => json({ levels: [] });
        window.dispatchEvent(new Event("online")); // the browser says the network is back: ask at once
        await settle();
        steps.online = { fetched: fetched.slice(1), retried, refreshed, pending: pending() };
        window.dispatchEvent(new Event("online"));
        document.dispatchEvent(new Event("visibilitychange"));
        await settle();
        steps.quiet = fetched.length; // the server answers: nothing asked again
        untilBack();

        answer = () => { throw new TypeError("Failed to fetch"); };
        await api.getGame("g1", null).catch(() => {});
        const first = pending();
        window.dispatchEvent(new Event("online")); // not back yet: the next ask comes soon, not later
        await settle();
        steps.stillDown = { first, next: pending(), fetched: fetched.length };
        answer = () => json({ levels: [] });
        document.dispatchEvent(new Event("visibilitychange")); // the page shown again: ask at once
        await settle();
        steps.shown = { refreshed, retried, pending: pending(), last: fetched[fetched.length - 1] };
        console.log(JSON.stringify(steps));
        """,
    )
    assert got["failed"] == 0
    assert got["waiting"]["fetched"] == 1 and len(got["waiting"]["pending"]) == 1
    assert 400 <= got["waiting"]["pending"][0] <= 600  # the first ask again within a second anyway
    assert got["online"] == {"fetched": ["/v1/levels"], "retried": 1, "refreshed": 0, "pending": []}
    assert got["quiet"] == 2
    assert len(got["stillDown"]["first"]) == 1 and len(got["stillDown"]["next"]) == 1
    assert got["stillDown"]["fetched"] == 4 and got["stillDown"]["next"][0] <= 600
    # the page that took its retry back (it was left) is opened again at its address instead
    assert got["shown"] == {"refreshed": 1, "retried": 1, "pending": [], "last": "/v1/levels"}


def test_a_feed_waiting_for_the_network_reconnects_when_any_call_is_answered(tmp_path):
    got = run(
        tmp_path,
        BROWSER
        + """
        const { api } = await js("api.js");
        const { follow } = await js("transport.js");
        const statuses = [];
        const streams = () => fetched.filter((path) => path.includes("/stream")).length;
        const open = () => new Response(new ReadableStream({ start() {} }), { status: 200, headers: { "Content-Type": "text/event-stream" } });
        const feed = follow("g1", "tok", 0, { onEvents() {}, onStatus: (s) => statuses.push(s.state), onFatal() {}, onFrame() {} });
        await settle();
        const lost = { streams: streams(), statuses: [...statuses], waits: pending() };
        answer = (path) => (path.includes("/stream") ? open() : json({ levels: [] }));
        await api.levels(); // another call of the page answered (network.js's probe, a move)
        await settle();
        const back = { streams: streams(), statuses: [...statuses] };
        feed.stop();

        statuses.length = 0;
        answer = (path) => (path.includes("/stream") ? json({ code: "busy" }, 503, { "Retry-After": "30" }) : json({ levels: [] }));
        const busy = follow("g2", "tok", 0, { onEvents() {}, onStatus: (s) => statuses.push(s.state), onFatal() {}, onFrame() {} });
        await settle();
        const before = streams();
        await api.levels();
        await settle();
        const server = { again: streams() - before, statuses: [...statuses], waits: pending().filter((ms) => ms >= 24_000 && ms <= 36_000) }; // Retry-After ± 20 %
        busy.stop();
        console.log(JSON.stringify({ lost, back, server }));
        """,
    )
    assert got["lost"]["streams"] == 1 and got["lost"]["statuses"] == ["live", "reconnecting"]
    assert any(ms >= 1_600 for ms in got["lost"]["waits"])  # its own wait: at least the stream's retry delay
    assert got["back"] == {"streams": 2, "statuses": ["live", "reconnecting", "live"]}
    # a wait the server asked for is not cut short by another call's answer
    assert got["server"]["again"] == 0 and got["server"]["statuses"] == ["live", "reconnecting"]
    assert len(got["server"]["waits"]) == 1


def test_the_server_is_out_of_reach_once_the_browser_or_a_call_says_so_and_back_at_any_answer(tmp_path):
    got = run(
        tmp_path,
        BROWSER
        + """
        const { api } = await js("api.js");
        const network = await js("network.js");
        network.watchNetwork();
        const told = [];
        const unhear = network.onOffline((offline) => told.push(offline));
        const steps = {};
        await api.stream("g1", "tok", 0, false).catch(() => {}); // a stream's failure alone: the probe will say
        steps.stream = { told: [...told], offline: network.isOffline() };
        await api.levels().catch(() => {}); // the probe (any call) found no server
        steps.call = { told: [...told], offline: network.isOffline() };
        answer = () => json({ levels: [] });
        await api.levels();
        steps.answered = { told: [...told], offline: network.isOffline() };
        answer = () => { throw new TypeError("Failed to fetch"); };
        window.dispatchEvent(new Event("offline")); // the browser says so: at once, before any call
        steps.browser = { told: [...told], offline: network.isOffline() };
        unhear();
        answer = () => json({ levels: [] });
        await api.levels();
        steps.unheard = { told: [...told], offline: network.isOffline() };
        console.log(JSON.stringify(steps));
        """,
    )
    assert got["stream"] == {"told": [], "offline": False}
    assert got["call"] == {"told": [True], "offline": True}
    assert got["answered"] == {"told": [True, False], "offline": False}
    assert got["browser"] == {"told": [True, False, True], "offline": True}
    assert got["unheard"] == {"told": [True, False, True], "offline": False}
