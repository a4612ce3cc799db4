// The rules in a player's words and language, by their codes: a preset's name and what it is
// (`lobby.preset.<name>`, `….short`, `….about`), a rule option's name and what it does
// (`lobby.rule.<option>`, `….about`: every option of services/engine/rules.py, tests/web/test_i18n.py),
// the house rules a table plays and the whole of a table's rules (the Rules dialog). The server's English
// texts (GET /v1/rules `options[].description`, `preset_descriptions`) are only the fallback for a
// code the catalogue lacks.

import { has, t } from "./i18n.js";

const words = (code) => String(code).replaceAll("_", " ");

/** A preset's name in the form ("Partnership (South & North against West & East)"). */
export function presetName(name) {
  return has(`lobby.preset.${name}`) ? t(`lobby.preset.${name}`) : words(name);
}

/** A preset's short name ("Partnership", "House rules"). */
export function presetShort(name) {
  return has(`lobby.preset.${name}.short`) ? t(`lobby.preset.${name}.short`) : presetName(name);
}

/** What a preset is, in a line (`catalogue`: GET /v1/rules, whose English answers for an unknown preset). */
export function presetAbout(name, catalogue = null) {
  if (has(`lobby.preset.${name}.about`)) return t(`lobby.preset.${name}.about`);
  return ((catalogue && catalogue.preset_descriptions) || {})[name] || "";
}

/** A rule option's name ("Winning score"); an option the catalogue lacks: its code in words. */
export function ruleName(option) {
  return has(`lobby.rule.${option}`) ? t(`lobby.rule.${option}`) : words(option);
}

/** What a rule option does, in a line; the server's description for an option the catalogue lacks. */
export function ruleAbout(option, catalogue = null) {
  if (has(`lobby.rule.${option}.about`)) return t(`lobby.rule.${option}.about`);
  const listed = ((catalogue && catalogue.options) || []).find((o) => o.name === option);
  return listed ? listed.description || "" : "";
}

/** The house rules a table plays, one phrase each ("Jokers (Big ▸ Little ▸ A♠)", "Blind nil ±200"), or []. */
export function variantWords(rules) {
  const said = [];
  if (rules.jokers) said.push(t("lobby.house.jokers"));
  if (rules.deuces_high) said.push(t("lobby.house.deuces_high"));
  if (rules.blind_nil) said.push(t("lobby.house.blind_nil", { points: rules.blind_nil_value }));
  if (rules.blind_bids) said.push(t("lobby.house.blind_bids"));
  if (rules.blind_nil || rules.blind_bids) {
    said.push(rules.blind_margin ? t("lobby.house.blind_margin", { points: rules.blind_margin }) : t("lobby.house.blind_any_time"));
  }
  if (rules.nil_pass_cards) {
    said.push(t(rules.nil_pass_blind_only ? "lobby.house.nil_pass_blind_only" : "lobby.house.nil_pass_cards", { count: rules.nil_pass_cards }));
  }
  if (rules.suicide) said.push(t("lobby.house.suicide"));
  if (rules.ten_for_200) said.push(t("lobby.house.ten_for_200", { points: rules.ten_for_200_value }));
  if (rules.mercy_margin !== null && rules.mercy_margin !== undefined) said.push(t("lobby.house.mercy", { points: rules.mercy_margin }));
  if (rules.deals) said.push(t("lobby.house.deals", { count: rules.deals }));
  // Any other house rule that is a switch: its phrase (`lobby.house.<option>`) while it is on.
  for (const [option, on] of Object.entries(rules)) if (on === true && !PHRASED.has(option) && has(`lobby.house.${option}`)) said.push(t(`lobby.house.${option}`));
  return said;
}

// The options phrased above, each in its own words.
const PHRASED = new Set(["jokers", "deuces_high", "blind_nil", "blind_bids", "nil_pass_blind_only", "suicide", "ten_for_200"]);

/**
 * Every rule a table plays in a player's words, the way the table applies it (the bid panel's team
 * minimum, nil, bags, how the game ends…): [phrase].
 */
export function tableRuleWords(rules) {
  const partnership = rules.scoring === "partnership";
  const said = [t(partnership ? "lobby.table.partnership" : "lobby.table.individual")];
  said.push(
    rules.lose_score === null || rules.lose_score === undefined
      ? t("lobby.table.winAt", { count: rules.win_score })
      : t("lobby.table.winOrLose", { low: rules.lose_score, count: rules.win_score }),
  );
  if (partnership) {
    if (rules.min_team_bid > 0) {
      said.push(t(rules.nil ? "lobby.table.teamMinimumNil" : "lobby.table.teamMinimum", { count: rules.min_team_bid }));
    }
    if (rules.max_team_bid < 13) said.push(t("lobby.table.teamMaximum", { count: rules.max_team_bid }));
  }
  said.push(t("lobby.table.contract"));
  said.push(t(rules.set_penalty === "negative" ? "lobby.table.setNegative" : "lobby.table.setZero"));
  said.push(rules.bag_penalty ? t("lobby.table.bags", { count: rules.bag_limit, points: rules.bag_penalty }) : t("lobby.table.noBagPenalty"));
  if (rules.nil) {
    said.push(t("lobby.table.nil", { points: rules.nil_value }));
    if (partnership) said.push(t(rules.nil_tricks_count_for_team ? "lobby.table.nilTricksCount" : "lobby.table.nilTricksApart"));
  } else {
    said.push(t("lobby.table.noNil"));
  }
  said.push(t(rules.spades_must_be_broken ? "lobby.table.spadesBroken" : "lobby.table.spadesAnyTime"));
  return said;
}
