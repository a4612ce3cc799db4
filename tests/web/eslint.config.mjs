// ESLint for /play's JavaScript (tests/web/test_client_compat.py runs it): every browser API and
// built-in used is in the browsers the client supports (eslint-plugin-compat, from MDN's data), and
// no name is undefined or left unused. The supported browsers are listed here only
// (docs/web-client.md, "Browsers").
import compat from "eslint-plugin-compat";
import globals from "globals";

export const BROWSERS = ["chrome >= 109", "edge >= 109", "firefox >= 115", "safari >= 16.4", "ios_saf >= 16.4", "samsung >= 21"];

const common = {
  plugins: { compat },
  settings: { browsers: BROWSERS },
  rules: {
    "compat/compat": "error",
    "no-undef": "error",
    "no-unused-vars": ["error", { varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true }],
  },
};

export default [
  {
    ...common,
    files: ["services/web/static/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
  },
  {
    ...common,
    files: ["services/web/sw.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: globals.serviceworker },
  },
];
