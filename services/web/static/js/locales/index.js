// The languages the client speaks: a catalogue file beside this one (locales/<code>.js, the keys of
// en.js) and a line here, its code and its name in its own language (docs/web-client.md, "Languages").
export const LANGUAGES = {
  en: "English",
  id: "Bahasa Indonesia",
};
