// The equipment advice in the suggestions panel: for every card the player may
// use now (the table's board), the core's candidates with their exact odds and
// a verdict "use now" / "keep" (bridge `suggest` with `cards: true`;
// docs/suggestions.md, "Equipment advice"). The list of calls comes first and
// fast; the advice is a second request, shown when it lands.
import { dialNoteWords, h, limitWords } from "./ui.js";
import { standName, valueLabel } from "./model.js";
import { CARD_NAMES } from "./equipment.js";
import { has, t, tn } from "./i18n.js";
import { incompleteNotes, infoWords, riskText } from "./suggestions.js";

const SHOWN_CANDIDATES = 3;
// A character that works as a card (rules §5: E1 as the General Radar, E2 as the Walkie-Talkies).
const SAME_EFFECT = { general_radar: "8", walkie_talkies: "2" };

// The cards that ask the table for information (the General Radar and E1, the marks): the panel
// words what they tell (infoWords), the core's reason names bits.
const INFO_CARDS = new Set(["8", "4", "12", "1", "2.2"]);

/** One candidate of a card, in words, with its figures (the page's names for wires and players). */
export function candidateText(card, c, screen) {
  const slot = (s) => screen.slotName(s);
  switch (SAME_EFFECT[card.card] || card.card) {
    case "8": { // General Radar (E1 too): the answers' information, and who is likely to say yes
      const yes = c.stands.map((s) => `${c.stands.filter((o) => o.player === s.player).length > 1 ? standName(screen.table, s.player, s.stand) : screen.playerName(s.player)} ${riskText(s.p_yes_public)}`);
      const info = c.bits === null ? t("cards.atMost", { what: infoWords(c.bits_at_most) }) : infoWords(c.bits);
      return t("cards.radar", { value: valueLabel(c.value), info, yes: yes.join(", ") });
    }
    case "9":
      return t("cards.stabilizer", { where: slot(c.target), value: valueLabel(c.value), p: riskText(c.p_success), red: riskText(c.p_red) });
    case "4": case "12": case "1": case "2.2": {
      const where = c.target ? slot(c.target) : `${slot(c.targets[0])}${t("words.and")}${slot(c.targets[1])}`;
      // The Post-it's token is the mission's: a number, even/odd (M21/M33) or ×1–×3 (M24/M40).
      const token = c.parity ? `, ${t(`token.${c.parity}`)}` : c.count ? `, ${t("token.count", { n: c.count })}` : "";
      return t("cards.mark", { where: `${where}${c.value !== undefined ? ` (${valueLabel(c.value)}${token})` : ""}`, tells: t("sug.tells", { what: infoWords(c.information ?? c.bits) }) });
    }
    case "11.11":
      return t("cards.take", { where: slot(c.target), p: riskText(c.p_match), red: riskText(c.p_red) });
    case "2":
      return `${t("cards.give", { where: slot(c.give), value: valueLabel(c.value), name: screen.playerName(c.to), p: riskText(c.p_teammate_holds) })}${c.alone ? t("cards.alone") : ""}`;
    case "9.9":
      return t("cards.fastPass", { value: valueLabel(c.value), wires: c.slots.map(slot).join(", ") });
    case "10.10":
      return t("cards.disintegrator", { value: valueLabel(c.value), n: Number(c.expected_cut).toFixed(2) });
    case "7":
      return t("cards.character", { name: screen.playerName(c.player) });
    case "3.3":
      return t("spent.card", { card: c.card });
    default:
      return c.value !== undefined ? valueLabel(c.value) : "";
  }
}

// What avoids the best call's red risk (suggest/equipment.py red_escape): a card by its name, or a detector.
const ESCAPES = {
  stabilizer: () => CARD_NAMES[9], coffee_mug: () => CARD_NAMES[11], walkie_talkies: () => CARD_NAMES[2], detector: () => t("advice.detector"),
};
const pct = (p) => `${Math.round(p * 100)}%`;
const pct1 = (p) => `${(p * 100).toFixed(1)}%`;

/** A card's assumption (the Disintegrator's draw) from the core's `assumption_why` code, else its English. */
function assumptionText(card) {
  const why = card.assumption_why;
  return why && has(`assumption.${why.code}`) ? t(`assumption.${why.code}`, why.fields || {}) : card.assumption;
}

/** A card's reason from the core's `code` and `fields` (bombbuster_core/suggest/advice.py ADVICE_CODES), else its English `why`. */
function coreWhy(card, screen) {
  if (!card.code || !has(`advice.${card.code}`)) return card.why;
  const f = card.fields || {};
  const fields = {
    ...f,
    cap: f.cap === undefined ? undefined : pct(f.cap),
    p: f.p === undefined ? undefined : pct(f.p),
    p_success: f.p_success === undefined ? undefined : pct(f.p_success),
    p_red: f.p_red === undefined ? undefined : pct1(f.p_red),
    p_strike: f.p_strike === undefined ? undefined : pct1(f.p_strike),
    mean: f.mean === undefined ? undefined : Number(f.mean).toFixed(2),
    information: f.information === undefined ? undefined : infoWords(f.information),
    bits: f.bits === undefined ? undefined : infoWords(f.bits),
    value: f.value === undefined ? undefined : valueLabel(f.value),
    player: f.player === undefined ? undefined : screen.playerName(f.player),
    event: f.event === undefined ? undefined : f.event + 1, // events as the log numbers them
    kind: f.kind === undefined ? undefined : ESCAPES[f.kind] ? ESCAPES[f.kind]() : f.kind.replace(/_/g, " "),
    left: f.left === undefined ? undefined : f.left === 0 ? t("dial.next") : tn("dial.allowed", f.left),
    // dial_unread's reason is the mission's rule in the core's English: the page words the same note.
    reason: card.code === "dial_unread" ? dialNoteWords(screen.state().dialNoteCode) || f.reason
      : f.limit ? limitWords(f.limit) || card.why : f.reason, // not_computed: the engine limit's code, worded here
  };
  return card.code === "batteries" || card.code === "drop" || card.code === "dial_moved"
    ? tn(`advice.${card.code}`, f.n ?? f.moved, fields) : t(`advice.${card.code}`, fields);
}

/**
 * The card's reason: an information card's in words (its best candidate, by the
 * figure the core's verdict reads: a mark's `information`, the Radar's bits).
 */
function reasonText(card, screen) {
  const best = card.candidates && card.candidates[0];
  if (!INFO_CARDS.has(SAME_EFFECT[card.card] || card.card) || !best) return coreWhy(card, screen);
  const figure = best.information ?? best.bits;
  if (figure === null || figure === undefined) return coreWhy(card, screen);
  const key = (SAME_EFFECT[card.card] || card.card) === "8" ? "cards.bestQuestion" : "cards.bestMark";
  return `${t(key, { what: infoWords(figure) })}${card.verdict === "use now" ? "" : t("cards.keepIt")}`;
}

/** Why the player may use no card (M17's, M28's Captain): `barred_why`'s code and fields, else the core's English `barred`. */
function barredText(advice, screen) {
  const why = advice.barred_why;
  if (!why || !has(`barred.${why.code}`)) return `${advice.barred}.`;
  return t(`barred.${why.code}`, { mission: why.fields.mission, name: screen.playerName(why.fields.player) });
}

/** The best candidates first: the Disintegrator's by wires cut (the core lists them by number). */
function shownCandidates(card) {
  const list = card.card === "10.10" ? [...card.candidates].sort((a, b) => b.expected_cut - a.expected_cut) : card.candidates;
  return list.slice(0, SHOWN_CANDIDATES);
}

/** The "Cards" group of the panel for the bridge's `equipment` answer (null: the table lists no board). */
export function cardsSection(state, screen) {
  if (!state) return null;
  const head = h("h3", {}, t("cards.title"));
  if (state.kind === "busy") return h("div.sug-group.sug-cards", { dataset: { group: "cards" }, "aria-busy": "true" }, head, h("p.hint", {}, t("cards.weighing")));
  if (state.kind === "error") return h("div.sug-group.sug-cards", { dataset: { group: "cards" } }, head, h("p.hint", {}, t("cards.error", { reason: state.message })));
  const advice = state.advice;
  if (!advice) return null;
  const cards = advice.cards || [];
  const later = (advice.your_turn_only || []).map((c) => c.name || c.card);
  return h("div.sug-group.sug-cards", { dataset: { group: "cards" } }, head,
    advice.barred ? h("p.hint.cards-barred", {}, barredText(advice, screen)) : null,
    cards.length ? null : h("p.hint", {}, t("cards.none")),
    h("ul.sug-list", {}, cards.map((card) => h("li.card-advice", {
      dataset: { card: card.card, source: card.source || "card", verdict: card.verdict },
    },
    h("div.sug-line", {},
      h("span.sug-kind", {}, card.name || card.card),
      h(`span.verdict.${card.verdict === "use now" ? "use" : "keep"}`, {}, card.verdict === "use now" ? t("cards.useNow") : t("cards.keep"))),
    reasonText(card, screen) ? h("p.sug-why", { dataset: { code: card.code || "" } }, reasonText(card, screen)) : null,
    card.candidates && card.candidates.length ? h("ol.card-candidates", {}, shownCandidates(card).map((c) => h("li", {}, candidateText(card, c, screen)))) : null,
    card.assumption ? h("p.hint", {}, assumptionText(card)) : null,
    card.incomplete && card.incomplete.length ? h("p.hint", {}, t("cards.stopped", { what: incompleteNotes(card.incomplete, card.incomplete_why, screen.table).join("; ") })) : null))),
    later.length ? h("p.hint", {}, t("cards.onYourTurn", { cards: later.join(", ") })) : null);
}
