"""The rules in a player's words, run in node (no server, no browser): a count of one is said in the singular."""

from __future__ import annotations

from tests.web.test_people_logic import run


def test_a_game_to_one_point_is_said_in_the_singular(tmp_path):
    got = run(
        tmp_path,
        """
        const i18n = await js("i18n.js");
        const words = await js("rulewords.js");
        const rules = (win, lose) => ({ scoring: "partnership", win_score: win, lose_score: lose, min_team_bid: 0,
          max_team_bid: 13, set_penalty: "negative", bag_penalty: 100, bag_limit: 10, nil: false,
          spades_must_be_broken: true });
        const out = {};
        for (const language of ["en", "id"]) {
          await i18n.useLanguage(language);
          out[language] = {
            one: words.tableRuleWords(rules(1, null))[1],
            oneOrLose: words.tableRuleWords(rules(1, -1))[1],
            many: words.tableRuleWords(rules(500, -200))[1],
            noHouse: [i18n.t("lobby.rules.noHouse", { count: 1 }), i18n.t("lobby.rules.noHouse", { count: 500 })],
          };
        }
        console.log(JSON.stringify(out));
        """,
    )
    assert got["en"]["one"] == "The first side to reach 1 point wins"
    assert got["en"]["oneOrLose"].startswith("The game ends when a side reaches 1 point or falls to \u22121")
    assert got["en"]["many"].startswith("The game ends when a side reaches 500 points or falls to \u2212200")
    assert got["en"]["noHouse"] == [
        "No house rules; this table plays to 1 point.",
        "No house rules; this table plays to 500 points.",
    ]
    assert got["id"]["one"] == "Pihak pertama yang mencapai 1 poin menang"
    assert got["id"]["noHouse"][0] == "Tanpa aturan rumah; meja ini bermain sampai 1 poin."
