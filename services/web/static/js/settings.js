// The player's display settings (seed 000: "Board Background", "Card Color"), and the pace of
// computer moves, kept in this browser's localStorage.

const KEY = "spades.settings";

// Each choice and the catalogue key of its name (shown with t(): the language loads after this module).
export const BACKGROUNDS = {
  felt: "app.background.felt",
  ocean: "app.background.ocean",
  wine: "app.background.wine",
  slate: "app.background.slate",
  sand: "app.background.sand",
};
export const CARD_BACKS = {
  navy: "app.cardBack.navy",
  crimson: "app.cardBack.crimson",
  forest: "app.cardBack.forest",
  violet: "app.cardBack.violet",
  charcoal: "app.cardBack.charcoal",
};
/** Milliseconds between computer moves; a trick stays on the table 1.5× as long. */
export const PACES = { slow: 1600, normal: 900, fast: 400 };
/** The catalogue key of each pace's name ("{seconds}" between moves). */
export const PACE_NAMES = { slow: "app.pace.slow", normal: "app.pace.normal", fast: "app.pace.fast" };

// sound and notify: your turn announced while the tab is hidden (attention.js): a sound unless turned off, a
// notification once the person allowed it (Settings, or the table's "Alert me")
const DEFAULTS = { background: "felt", cardBack: "navy", pace: "normal", sound: true, notify: false };

export function loadSettings() {
  let stored = {};
  try {
    stored = JSON.parse(localStorage.getItem(KEY)) || {};
  } catch {
    stored = {};
  }
  const settings = { ...DEFAULTS, ...stored };
  if (!(settings.background in BACKGROUNDS)) settings.background = DEFAULTS.background;
  if (!(settings.cardBack in CARD_BACKS)) settings.cardBack = DEFAULTS.cardBack;
  if (!(settings.pace in PACES)) settings.pace = DEFAULTS.pace;
  settings.sound = settings.sound !== false;
  settings.notify = settings.notify === true;
  return settings;
}

export function saveSettings(settings) {
  localStorage.setItem(KEY, JSON.stringify(settings));
  applySettings(settings);
}

/** The look, as data attributes on <body> the stylesheet keys on. */
export function applySettings(settings) {
  document.body.dataset.background = settings.background;
  document.body.dataset.cardBack = settings.cardBack;
}

/**
 * Milliseconds between computer moves: `?pace=<ms>` in the page's address overrides the setting
 * (tests use ?pace=0; it is a display speed, nothing secret).
 */
export function paceMs(settings) {
  const override = new URLSearchParams(location.search).get("pace");
  if (override !== null && /^\d{1,5}$/.test(override)) return Number(override);
  return PACES[settings.pace];
}
