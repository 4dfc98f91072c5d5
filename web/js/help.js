// First-use help (3 short screens, shown on the first visit above the new-game
// form and from the menu) and the "About the numbers" page.
import { h, openSheet } from "./ui.js";
import { t } from "./i18n.js";

const SCREENS = [1, 2, 3].map((n) => [t(`help.screen${n}.title`), t(`help.screen${n}.text`)]);

function pager(onDone) {
  let index = 0;
  const box = h("div.help-pages");
  const draw = () => {
    const [title, text] = SCREENS[index];
    box.replaceChildren(
      h("h3.help-title", {}, title),
      h("p", {}, text),
      h("div.actions", {},
        index > 0 ? h("button.secondary", { dataset: { action: "help-back" }, onclick: () => { index -= 1; draw(); } }, t("common.back")) : null,
        index < SCREENS.length - 1
          ? h("button.primary", { dataset: { action: "help-next" }, onclick: () => { index += 1; draw(); } }, t("help.next", { n: index + 1, of: SCREENS.length }))
          : h("button.primary", { dataset: { action: "help-done" }, onclick: onDone }, t("help.done"))));
  };
  draw();
  return box;
}

/** The first-use help as a card (not a dialog: the form below stays usable). */
export function helpCard(onDismiss) {
  const card = h("section.card.help-card", { "aria-label": t("help.cardLabel") }, h("h2", {}, t("help.cardTitle")));
  const close = () => { onDismiss(); card.remove(); };
  card.append(pager(close), h("button.link", { dataset: { action: "help-skip" }, onclick: close }, t("help.skip")));
  return card;
}

export function showHelp() {
  let close = null;
  close = openSheet(t("help.title"), pager(() => close()),
    h("p.hint", { id: "help-live" }, h("b", {}, t("help.liveTitle")), " ", t("help.liveText")));
}

/** One paragraph of "About the numbers": its bold lead, then its text. */
const about = (name, attrs = {}) => h("p", attrs, h("b", {}, t(`about.${name}.lead`)), " ", t(`about.${name}.text`));

export function showAbout() {
  openSheet(t("menu.about"),
    h("div.about-numbers", {},
      about("exact"), about("public"), about("deals", { id: "about-deals" }), about("badges"), about("suggestions"),
      about("state"), about("dial", { id: "about-dial" })));
}
