// The shell's pages over a game's screen: its guide (rules, scoring,
// strategy, questions, with the diagrams of shell/figures.js) and the
// statistics explained, the same for every game. Catalog prose is always
// inserted as text, never as HTML.

import { $, svgElement } from "./dom.js";
import { has, t } from "./i18n.js";

// The guide's diagrams (shell/figures.js), loaded the first time a guide is
// shown; ``onLoaded`` draws the guide again once they are in.
let figures = null;
let figuresAsked = false;

function loadFigures(onLoaded) {
  if (figuresAsked) return;
  figuresAsked = true;
  import("./figures.js").then((module) => {
    figures = module.FIGURES;
    onLoaded();
  }).catch((error) => console.warn("shell: the guide's diagrams could not be loaded", error));
}

/** A game's guide: rules, scoring (with a link to the statistics page, which
 * explains the statistics once for every game), strategy, questions; each
 * diagram after the text of its section; ``onFigures`` is called once the
 * diagrams have come in, the first time (they are not drawn before). */
export function renderGuide(game, onFigures) {
  loadFigures(onFigures);
  const guide = $("guide");
  guide.replaceChildren();
  const sections = [["rules", "guide.rules"], ["scoring", "guide.scoring"], ["strategy", "guide.strategy"]];
  for (const [section, title] of sections) {
    const key = `guide.${game}.${section}`;
    if (!has(key)) continue;
    const heading = document.createElement("h2");
    heading.textContent = t(title);
    guide.append(heading, ...paragraphs(t(key)));
    if (section === "scoring") {
      const more = document.createElement("p");
      more.append(pageLink(game, "statistics", t("guide.statistics"), "guide-stats-link"));
      guide.append(more);
    }
    const drawn = (figures?.[game] || []).filter(([where]) => where === section);
    if (drawn.length) guide.append(figureRow(game, drawn));
  }
  // Hints, the evaluation bar and the analysis: the same for every game.
  const insight = document.createElement("h2");
  insight.id = "guide-analysis";
  insight.textContent = t("guide.analysis_title");
  guide.append(insight, ...paragraphs(t("guide.analysis")));
  const faq = [];
  for (let n = 1; has(`guide.${game}.faq${n}.q`); n += 1) faq.push(n);
  if (faq.length) {
    const heading = document.createElement("h2");
    heading.textContent = t("guide.faq");
    const list = document.createElement("dl");
    list.className = "faq";
    for (const n of faq) {
      const question = document.createElement("dt");
      question.textContent = t(`guide.${game}.faq${n}.q`);
      const answer = document.createElement("dd");
      answer.textContent = t(`guide.${game}.faq${n}.a`);
      list.append(question, answer);
    }
    guide.append(heading, list);
  }
}

/** The statistics explained, the same for every game. */
export function renderStatisticsHelp(game) {
  const more = document.createElement("p");
  more.append(pageLink(game, "guide", t("guide.heading", { game: t(`games.${game}.name`) }), "stats-guide-link"));
  // A game with help is defined once: the note under the board quotes it too.
  const text = t("guide.scoring_common", { help: t("assisted.help") });
  $("guide").replaceChildren(...paragraphs(text), more);
}

function pageLink(game, page, text, testid) {
  const link = document.createElement("a");
  link.href = `#/${game}/${page}`;
  link.textContent = text;
  link.dataset.testid = testid;
  return link;
}

/** Figures side by side, each a picture named by its caption. */
function figureRow(game, drawn) {
  const row = document.createElement("div");
  row.className = "guide-figs";
  const namespace = document.querySelector(".brand-mark").namespaceURI;
  for (const [, name, picture] of drawn) {
    const figure = document.createElement("figure");
    figure.className = "guide-fig";
    figure.dataset.figure = name;
    const caption = document.createElement("figcaption");
    caption.id = `fig-${game}-${name}`;
    caption.textContent = t(`guide.${game}.fig_${name}`);
    const image = svgElement(picture, namespace);
    image.setAttribute("aria-labelledby", caption.id);
    figure.append(image, caption);
    row.append(figure);
  }
  return row;
}

/** Catalog prose: blank lines separate paragraphs, lines starting "- " are
 * list items. Always inserted as text, never as HTML. */
function paragraphs(text) {
  return text.split(/\n\s*\n/).map((block) => {
    const lines = block.split("\n");
    if (lines.every((line) => line.startsWith("- "))) {
      const list = document.createElement("ul");
      for (const line of lines) {
        const item = document.createElement("li");
        item.textContent = line.slice(2);
        list.append(item);
      }
      return list;
    }
    const paragraph = document.createElement("p");
    paragraph.textContent = block;
    return paragraph;
  });
}
