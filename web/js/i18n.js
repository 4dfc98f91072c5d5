// The page's languages: one message catalogue per language (js/i18n/LANG.json,
// the same keys in each, with the missions' summaries and rule tags beside it in
// js/i18n/missions-LANG.json), chosen from the menu's switch (kept in localStorage)
// or else from the browser's languages. t("menu.title") words a message, t(key, {name}) fills {name};
// docs/i18n.md says how to add a language and what is not translated.

/** The languages the page speaks, each named in itself (the menu's switch). */
export const LANGUAGES = { en: "English", fr: "Français", de: "Deutsch" };
const FALLBACK = "en";
const SETTING = "bombbuster.language";

/** The first of the browser's languages the page speaks ("fr-CA" → "fr"), else English. */
export function languageFor(saved, preferred) {
  if (saved && saved in LANGUAGES) return saved;
  for (const tag of preferred || []) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base in LANGUAGES) return base;
  }
  return FALLBACK;
}

function savedLanguage() {
  try {
    return localStorage.getItem(SETTING);
  } catch {
    return null; // storage blocked: the browser's languages decide
  }
}

async function loadFile(name) {
  const response = await fetch(new URL(`./i18n/${name}.json`, import.meta.url));
  if (!response.ok) throw new Error(`${name}.json: HTTP ${response.status}`);
  return response.json();
}

/** A language's words: its main catalogue and the missions' texts (missions-LANG.json: summaries, rule tags). */
async function load(code) {
  const [main, missions] = await Promise.all([loadFile(code), loadFile(`missions-${code}`)]);
  return { ...main, ...missions };
}

const chosen = languageFor(savedLanguage(), navigator.languages || [navigator.language]);
// A catalogue that cannot be read (a damaged cache) leaves the page in English rather than blank.
const [language, catalogue] = await load(chosen).then((words) => [chosen, words],
  () => load(FALLBACK).then((words) => [FALLBACK, words]));
export { language };
const plurals = new Intl.PluralRules(language);

// What the page asked for: the languages test fails on a key missing from the catalogue.
const seen = { missing: new Set(), used: new Set() };
globalThis.bombbusterI18n = { language, missing: seen.missing, used: seen.used };

/** The message `key` in the page's language, each {name} replaced by fields[name]. */
export function t(key, fields = {}) {
  seen.used.add(key);
  const template = catalogue[key];
  if (template === undefined) {
    seen.missing.add(key);
    return `⟦${key}⟧`;
  }
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
}

/** Whether the catalogue has `key` (a core reason's code the page may not know yet). */
export function has(key) {
  return key in catalogue;
}

/** A message that depends on a count: `key.one` or `key.other` by the language's plural rule, with {n}. */
export function tn(key, n, fields = {}) {
  return t(`${key}.${plurals.select(n) === "one" ? "one" : "other"}`, { n, ...fields });
}

/** Keep `code` as the page's language and reload in it (the open game is saved with every change). */
export function switchLanguage(code) {
  try {
    localStorage.setItem(SETTING, code);
  } catch {
    return false; // cannot be kept: nothing changes
  }
  location.reload();
  return true;
}

/** The shell's fixed texts (index.html): data-i18n words the text, data-i18n-ATTR an attribute. */
export function translateShell(root = document) {
  document.documentElement.lang = language;
  for (const element of root.querySelectorAll("*")) {
    for (const { name, value } of [...element.attributes]) {
      if (name === "data-i18n") element.textContent = t(value);
      else if (name.startsWith("data-i18n-")) element.setAttribute(name.slice("data-i18n-".length), t(value));
    }
  }
}
