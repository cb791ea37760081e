// The shell's routes and what each shows: the game list, a game's screen
// (drawn by py/app/page/app.py, which follows the route through onRoute), or
// a page of the shell over it (shell/guide.js).

import { GAMES as GAME_LIST } from "../vendor/games.js";
import { refreshCards } from "./cards.js";
import { $ } from "./dom.js";
import { renderGuide, renderStatisticsHelp } from "./guide.js";
import { t } from "./i18n.js";
import { callListener } from "./loading.js";

export const GAMES = GAME_LIST.map((entry) => entry.game);
const routeListeners = [];

/** Call ``listener(game or null)`` after every change of route. */
export const onRoute = (listener) => routeListeners.push(listener);

// Routes: #/<game> for each game of the list, a variant picked from the
// list (#/hex/swap, #/hex/no-swap: a game with the swap rule) and settings
// in a link (#/hex?size=9&vs=master): the query is the game's settings, read
// by py/app/page/app.py (its router) as the page's URL parameters are.
// A game's guide (#/hex/guide) and the statistics explained (#/hex/statistics)
// are pages of the shell over the game's screen: the router sees the game
// (currentRoute), so the game on its screen stays as it is, and a page's
// route carries no settings or variant for it to apply.
const ROUTE = /^#\/([a-z]+)(?:\/(swap|no-swap|guide|statistics|explore))?\/?(?:\?(.*))?$/;
const PAGES = ["guide", "statistics", "explore"];
// The game screen's address: the route it was opened by, or what the game on
// it made of that since (showGameAddress). The way back from a page over the
// game returns there, so that the game under the page stays as it was left
// (a shared game's link: the shared game).
let gameAddress = "";

function routeMatch(hash = location.hash) {
  const match = ROUTE.exec(hash);
  return match && GAMES.includes(match[1]) ? match : null;
}

/** The game screen's address is now ``hash`` (py/app/page/review_panel.py: a
 * shared game's link while that game is on screen, else the game's route):
 * the address bar shows it, unless a page is open over the game (its way
 * back returns there). No route change: the screen already shows it. */
export function showGameAddress(hash) {
  const match = routeMatch(hash);
  if (!match || match[1] !== currentRoute()) return;
  gameAddress = hash;
  if (!currentPage() && location.hash !== hash) history.replaceState(history.state, "", hash);
}

/** The way back from a page over the game to the game's screen. */
export function backToGame(game) {
  const match = routeMatch(gameAddress);
  return match && match[1] === game ? gameAddress : `#/${game}`;
}

export function currentRoute() {
  const match = routeMatch();
  return match ? match[1] : null;
}

export function currentVariant() {
  const match = routeMatch();
  return match && match[2] && !PAGES.includes(match[2]) ? match[2] : null;
}

/** The shell's page over the game ("guide", "statistics"), or null. */
export function currentPage() {
  const match = routeMatch();
  return match && PAGES.includes(match[2]) ? match[2] : null;
}

export function currentRouteQuery() {
  const match = routeMatch();
  return match && match[3] && !currentPage() ? match[3] : "";
}

/** The query of a page over the game (the analysis board's link: #/hex/explore?x=…). */
export function currentPageQuery() {
  const match = routeMatch();
  return match && match[3] && currentPage() ? match[3] : "";
}

export function renderRoute() {
  const game = currentRoute();
  const page = currentPage();
  $("picker").hidden = game !== null;
  $("game").hidden = game === null || page !== null;
  $("guide-page").hidden = page === null || page === "explore";
  $("explore").hidden = page !== "explore";
  document.body.dataset.route = game || "picker";
  if (game) {
    const name = t(`games.${game}.name`);
    $("game-title").textContent = name;
    document.title = `${name} · ${t("app.name")}`;
    $("guide-open").href = `#/${game}/guide`;
    $("stats-help").href = `#/${game}/statistics`;
    $("analysis-help").href = `#/${game}/guide`;
    $("guide-back").href = backToGame(game);
  } else {
    document.title = t("app.title");
    refreshCards();
  }
  if (page === "guide") {
    $("guide-title").textContent = t("guide.heading", { game: t(`games.${game}.name`) });
    renderGuide(game, () => {
      if (currentPage() === "guide") renderRoute();
    });
  } else if (page === "statistics") {
    $("guide-title").textContent = t("guide.statistics");
    renderStatisticsHelp(game);
  } else if (page === "explore") {
    $("explore-title").textContent = t("explore.title", { game: t(`games.${game}.name`) });
    $("explore-back").href = backToGame(game);
  }
  if (page) document.title = `${$(page === "explore" ? "explore-title" : "guide-title").textContent} · ${t("app.name")}`;
}

export function onRouteChange() {
  if (location.hash && location.hash !== "#/" && currentRoute() === null) {
    console.warn(`shell: unknown route ${JSON.stringify(location.hash)}; showing the game list`);
  }
  const leaving = document.body.dataset.page || "";
  const before = document.body.dataset.route;
  renderRoute();
  const page = currentPage();
  document.body.dataset.page = page || "";
  if (currentRoute() && !page) gameAddress = location.hash;
  let heading = currentRoute() ? $("game-title") : $("picker-title");
  if (page) {
    // A page opens at its top, its title focused (it is a new page to a
    // screen reader); back from it, the focus returns to the guide's link.
    heading = $(page === "explore" ? "explore-title" : "guide-title");
    window.scrollTo(0, 0);
  } else if (leaving && currentRoute()) {
    heading = $({ statistics: "stats-help", explore: "explore-open" }[leaving] || "guide-open");
  } else if (before && before !== document.body.dataset.route) {
    // Another screen starts at its top: a card tapped low on the game list
    // must not open the game scrolled past its title and status.
    window.scrollTo(0, 0);
  }
  if (page || (document.activeElement && document.activeElement !== document.body)) heading.focus?.({ preventScroll: false });
  for (const listener of routeListeners) callListener(listener, currentRoute());
}
