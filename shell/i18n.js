// The shell's words: the language (from the link, the stored choice or the
// browser's), the catalogs (i18n/<code>.json) with CLDR plural forms, and
// numbers, percentages, dates and durations through Intl. The language
// choice is also the shell's only stored value (prefs): it uses the same
// envelope as the Python storage layer and ignores anything it cannot read.

export const LANGUAGES = ["en", "de", "pt", "id"];
// The envelope's schema, as py/app/model/storage.py writes it.
export const SCHEMA = 1;
const PREFS_KEY = "abstract-games/prefs";

const catalogs = {};
let lang = "en";

/** The language on screen. */
export const currentLanguage = () => lang;

export function readPrefs() {
  try {
    const raw = localStorage.getItem(PREFS_KEY);
    if (!raw) return {};
    const envelope = JSON.parse(raw);
    if (envelope && envelope.schema === SCHEMA && envelope.data && typeof envelope.data === "object") {
      return envelope.data;
    }
  } catch (error) {
    console.warn("shell: stored preferences are unreadable and were ignored", error);
  }
  return {};
}

export function writePrefs(prefs) {
  try {
    localStorage.setItem(PREFS_KEY, JSON.stringify({ schema: SCHEMA, data: prefs }));
  } catch (error) {
    console.warn("shell: preferences could not be stored", error);
  }
}

/** The language to start in: ?lang= (for this link only), else the one
 * chosen in the menu, else the browser's first we speak, else English. */
export function pickLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked && LANGUAGES.includes(asked)) return asked;
  if (asked) console.warn(`shell: unknown language ${JSON.stringify(asked)} in the URL was ignored`);
  const stored = readPrefs().lang;
  if (LANGUAGES.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

async function loadCatalog(code) {
  if (!catalogs[code]) {
    const response = await fetch(`./i18n/${code}.json`);
    if (!response.ok) throw new Error(`catalog ${code}: HTTP ${response.status}`);
    catalogs[code] = await response.json();
  }
  return catalogs[code];
}

/** Speak ``code`` from now on, once its catalog (and English, the
 * fallback) are in. */
export async function useLanguage(code) {
  await Promise.all([loadCatalog("en"), loadCatalog(code)]);
  lang = code;
}

export function formatNumber(value) {
  return typeof value === "number" ? new Intl.NumberFormat(lang).format(value) : String(value);
}

/** The catalog text for key, with {placeholders} filled in. A value that is
 * an object holds CLDR plural forms chosen by params.count. */
export function t(key, params = {}) {
  let text = (catalogs[lang] || {})[key];
  if (text === undefined) text = (catalogs.en || {})[key];
  if (text === undefined) {
    console.warn(`shell: missing catalog key ${key}`);
    return key;
  }
  if (typeof text === "object") {
    const form = new Intl.PluralRules(lang).select(Number(params.count ?? 0));
    text = text[form] ?? text.other;
  }
  return text.replace(/\{(\w+)\}/g, (match, name) => (name in params ? formatNumber(params[name]) : match));
}

export function has(key) {
  return key in (catalogs[lang] || {}) || key in (catalogs.en || {});
}

/** The catalog's words in every element below ``root`` that names a key
 * (data-i18n for its text, data-i18n-attr="attribute:key;..." for its
 * attributes). */
export function applyCatalog(root = document) {
  for (const element of root.querySelectorAll("[data-i18n]")) {
    element.textContent = t(element.dataset.i18n);
  }
  for (const element of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of element.dataset.i18nAttr.split(";")) {
      const [attribute, key] = pair.split(":");
      element.setAttribute(attribute, t(key));
    }
  }
}

export function formatDuration(ms) {
  const seconds = Math.round(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (minutes === 0) return t("time.seconds", { count: rest });
  return t("time.minutes_seconds", { minutes, seconds: String(rest).padStart(2, "0") });
}

export function formatDate(ms) {
  return new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(ms));
}

export function formatPercent(fraction) {
  return new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(fraction);
}
