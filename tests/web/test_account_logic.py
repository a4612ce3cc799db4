"""The account's pure logic, run in node (no server, no browser): codes as people type them (signin.js: which kind a
code is by its length, any case, dashes and spaces ignored; the link fragment's code), the device's default name from
its user agent, the link code's countdown by the server's clock and its QR code only ever as an image address
(linkdevice.js, api.js), a device's last-seen time and picture (devices.js), the words said when the server refuses
this browser's credential (identity.js) and the account page's address (router.js)."""

from __future__ import annotations

import json

from tests.web.test_people_logic import run

ANDROID = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"
)
IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
WINDOWS_EDGE = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0"
MAC_FIREFOX = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0"
SAMSUNG = "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0 Mobile Safari/537.36"


def test_codes_are_read_as_people_type_them(tmp_path):
    got = run(
        tmp_path,
        """
        const s = await js("signin.js");
        const kinds = ["7K3M-9QXR", "7k3m9qxr", " 7K3M 9QXR ", "7K3M-9QX", "", "ABCD-EFGH-JKMN-PQRS", "abcdefghjkmnpqrs", "ABCD-EFGH-JKMN-PQR"].map(s.codeKind);
        const links = ["#link=7K3M9QXR", "#link=7k3m-9qxr", "#link=7K3M9QX", "#link=", "#rejoin=g.c", "", "#link=7K3M9QXR&x=1"].map(s.linkCodeIn);
        console.log(JSON.stringify({ kinds, links, compact: s.compactCode(" ab-cd ef ") }));
        """,
    )
    assert got["kinds"] == ["link_code", "link_code", "link_code", None, None, "recovery_code", "recovery_code", None]
    assert got["links"] == ["7K3M-9QXR", "7K3M-9QXR", None, None, None, None, None]
    assert got["compact"] == "ABCDEF"


def test_a_device_is_named_from_its_user_agent_in_the_pages_language(tmp_path):
    agents = [ANDROID, IPHONE, WINDOWS_EDGE, MAC_FIREFOX, SAMSUNG, "", "curl/8.0"]
    got = run(
        tmp_path,
        f"""
        const i18n = await js("i18n.js");
        const s = await js("signin.js");
        const agents = {json.dumps(agents)};
        await i18n.useLanguage("en");
        const en = agents.map((a) => s.defaultDeviceName(a));
        await i18n.useLanguage("id");
        const id = agents.slice(0, 2).map((a) => s.defaultDeviceName(a));
        console.log(JSON.stringify({{ en, id }}));
        """,
    )
    assert got["en"] == [
        "Chrome on Android",
        "Safari on iPhone",
        "Edge on Windows",
        "Firefox on Mac",
        "Samsung Internet on Android",
        "This browser",
        "This browser",
    ]
    assert got["id"] == ["Chrome di Android", "Safari di iPhone"]


def test_the_link_codes_countdown_and_qr_image(tmp_path):
    got = run(
        tmp_path,
        """
        const l = await js("linkdevice.js");
        const api = await js("api.js");
        const at = "2026-12-07T10:10:00.400Z";
        console.log(JSON.stringify({
          counts: [600000, 545000, 544001, 59999, 0, -5].map(l.countdown),
          // by the server's Date (whole seconds: counted a second early), whatever this device's clock says
          left: [api.timeLeft(at, "Mon, 07 Dec 2026 10:00:00 GMT", 0), api.timeLeft(at, null, Date.parse("2026-12-07T10:09:00.400Z")),
                 api.timeLeft(at, "Mon, 07 Dec 2026 10:20:00 GMT", 0)],
          qr: l.qrImage('<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0"/></svg>'),
          refused: [l.qrImage("<script>alert(1)</script>"), l.qrImage(null), l.qrImage("javascript:x")],
        }));
        """,
    )
    assert got["counts"] == ["10:00", "9:05", "9:05", "1:00", "0:00", "0:00"]
    assert got["left"] == [599400, 60000, 0]
    assert got["qr"].startswith("data:image/svg+xml;charset=utf-8,%3Csvg%20xmlns%3D")
    assert got["refused"] == [None, None, None]


def test_devices_last_seen_and_pictures(tmp_path):
    got = run(
        tmp_path,
        """
        const d = await js("devices.js");
        const now = Date.parse("2026-12-07T12:00:00Z");
        const ago = (ms) => new Date(now - ms).toISOString();
        const at = [30e3, 5 * 60e3, 3 * 3600e3, 26 * 3600e3, 3 * 86400e3];
        console.log(JSON.stringify({
          en: at.map((ms) => d.seenAgo(ago(ms), now, "en")),
          id: at.map((ms) => d.seenAgo(ago(ms), now, "id")),
          shapes: ["Chrome on Android", "Safari on iPhone", "Safari on iPad", "Work laptop", "Firefox on Windows"].map(d.deviceShape),
        }));
        """,
    )
    assert got["en"] == [None, "5 minutes ago", "3 hours ago", "yesterday", "3 days ago"]
    assert got["id"] == [None, "5 menit yang lalu", "3 jam yang lalu", "kemarin", "3 hari yang lalu"]
    assert got["shapes"] == ["phone", "phone", "tablet", "computer", "computer"]


def test_a_refused_credential_is_named_by_its_code_and_kind(tmp_path):
    got = run(
        tmp_path,
        """
        const identity = await js("identity.js");
        const router = await js("router.js");
        console.log(JSON.stringify({
          said: [["session_revoked", "sps_x"], ["player_token_invalid", "sps_x"], ["player_token_invalid", "spt_x"]]
            .map(([code, token]) => identity.refusedMessage(code, token)),
          dead: ["session_revoked", "player_token_invalid", "forbidden"].map((code) => identity.isDeadToken({ code })),
          session: ["sps_a", "spt_a", null].map(identity.isSession),
          pages: ["#/account", "#/account/x", "#/accounts"].map(router.fragmentPage),
        }));
        """,
    )
    assert got["said"] == ["players.signedOut", "players.sessionGone", "players.forgotten"]
    assert got["dead"] == [True, True, False]
    assert got["session"] == [True, False, False]
    assert got["pages"] == [{"page": "account"}, None, None]


def test_an_invite_to_your_own_seat_says_whether_another_device_of_yours_is_at_the_table(tmp_path):
    got = run(
        tmp_path,
        """
        const i18n = await js("i18n.js");
        const f = await js("seatfollow.js");
        await i18n.useLanguage("en");
        const say = (info) => i18n.t(f.inviteLeadKey(info));
        console.log(JSON.stringify({ at: say({ seat: 0, connected: true }), away: say({ seat: 0, connected: false }),
          unread: say({ seat: 0 }) }));
        """,
    )
    assert got["at"] == "You play it on another device. Take it here, and that device will watch."
    assert got["away"] == got["unread"] == "No device of yours is at the table now. Take it here to play on."
