// The player's display settings (seed 000: "Board Background", "Card Color"), and the pace of
// computer moves, kept in this browser's localStorage.

const KEY = "spades.settings";

export const BACKGROUNDS = {
  felt: "Green felt",
  ocean: "Ocean blue",
  wine: "Wine red",
  slate: "Slate grey",
  sand: "Sand",
};
export const CARD_BACKS = {
  navy: "Navy",
  crimson: "Crimson",
  forest: "Forest green",
  violet: "Violet",
  charcoal: "Charcoal",
};
/** Milliseconds between computer moves; a trick stays on the table 1.5× as long. */
export const PACES = { slow: 1600, normal: 900, fast: 400 };

// sound and notify: your turn announced while the tab is hidden (attention.js), off unless turned on
const DEFAULTS = { background: "felt", cardBack: "navy", pace: "normal", sound: false, notify: false };

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
  settings.sound = settings.sound === true;
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
