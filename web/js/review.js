// Review of a recorded game (issue 32 item 1): the bridge's `review` (bombbuster_core/review.py)
// runs in a worker with a progress bar; the page steps through the decisions (‹ › and a slider),
// shows at each what was played, its odds then, the ranking's best move and the cost (the success
// chance given up), marks the costliest, and tries another move there (a hypothetical: the bridge
// scores it on the table as it stood; nothing is written into the game). Reviews are kept per game
// and per log, for the page's life.
import { coreReason, engineErrorWords, h, limitWords, openSheet, searchRefusalWords } from "./ui.js";
import { describeEvent, playerName, possibleKeys, slotName, valueLabel, valuesOr } from "./model.js";
import { has, t } from "./i18n.js";
import { SEARCH } from "./suggestions.js";
import { cardName } from "./equipment.js";

const kept = new Map(); // game id → {events: count reviewed, view, result}

/** Why a decision is not scored, from the core's code and fields (an engine limit's own words, or review.why.CODE). */
function notScoredWords(d) {
  const why = d.not_scored_why;
  if (!why || !why.code) return d.not_scored;
  const limit = limitWords(why);
  if (limit) return limit;
  const f = why.fields || {};
  const kind = f.kind && has(`review.kind.${f.kind}`) ? t(`review.kind.${f.kind}`) : f.kind;
  const code = why.code === "not_legal_detector" && !f.size ? "not_legal_detector_every" : why.code;
  if (!has(`review.why.${code}`)) return d.not_scored;
  return t(`review.why.${code}`, { ...f, kind, cards: (f.cards || []).map(cardName).join(", ") || f.type });
}

const percent = (p) => `${(p * 100).toFixed(p > 0 && p < 0.01 ? 2 : 0)}%`;

function moveText(table, move) {
  if (!move) return "—";
  const values = move.values ? valuesOr(move.values) : move.value !== undefined ? valueLabel(move.value) : "";
  const where = move.target ? slotName(table, move.target) : (move.targets || []).map((at) => slotName(table, at)).join(", ");
  const kind = has(`review.kind.${move.kind}`) ? t(`review.kind.${move.kind}`) : move.kind.replace(/_/g, " ");
  return `${kind}${values ? ` ${values}` : ""}${where ? t("review.on", { where }) : ""}`;
}

const odds = (move) => (move && move.p_success !== undefined
  ? t("review.odds", { p: percent(move.p_success), red: percent(move.p_red) }) : "");

/** The review screen for `game` (a saved game: {id, table}); `pool` the engine pool. */
export function showReview(pool, game) {
  const table = game.table;
  const body = h("div.review", { dataset: { review: "loading" } });
  openSheet(t("menu.review"), body);
  const reuse = kept.get(game.id);
  if (reuse && reuse.events === table.events.length && reuse.view === JSON.stringify(table.me || null)) {
    render(pool, table, body, reuse.result);
    return;
  }
  const fill = h("div.review-progress-fill", { style: { width: "0%" } });
  const text = h("span.hint", {}, t("review.busy"));
  body.replaceChildren(h("div.review-progress", { role: "progressbar" }, fill), text);
  const onProgress = ({ done, total }) => {
    if (total) fill.style.width = `${(100 * done) / total}%`;
    text.textContent = t("review.progress", { done, total });
  };
  pool.request("review", { table }, { onProgress }).then((result) => {
    if (!result.consistent) {
      body.dataset.review = "error";
      body.replaceChildren(h("p.error", {}, t("review.noDeal", { reason: result.code ? coreReason(result, table) : result.error || "" })));
      return;
    }
    kept.set(game.id, { events: table.events.length, view: JSON.stringify(table.me || null), result });
    render(pool, table, body, result);
  }, (error) => {
    body.dataset.review = "error";
    body.replaceChildren(h("p.error", {}, t("review.failed", { reason: engineErrorWords(error, table) })));
  });
}

function render(pool, table, body, result) {
  const decisions = result.decisions;
  body.dataset.review = "ready";
  if (!decisions.length) {
    body.replaceChildren(h("p.hint", {}, t("review.none")));
    return;
  }
  let index = 0;
  const card = h("div.review-card");
  const slider = h("input.review-slider", {
    type: "range", min: 0, max: decisions.length - 1, value: 0, "aria-label": t("review.decisionLabel"),
    oninput: () => { index = Number(slider.value); draw(); },
  });
  const step = (by) => { index = Math.min(decisions.length - 1, Math.max(0, index + by)); slider.value = index; draw(); };
  const costliest = decisions.findIndex((d) => d.costliest);
  const draw = () => {
    const d = decisions[index];
    card.dataset.event = d.event;
    card.replaceChildren(
      h("p.review-where", {}, t("review.where", { n: index + 1, of: decisions.length, event: d.event + 1 }),
        d.costliest ? h("span.review-costliest", {}, t("review.costliest")) : null),
      h("p.review-event", {}, describeEvent(table.events[d.event], table)),
      h("dl.review-facts", {},
        h("dt", {}, t("review.played")), h("dd", { dataset: { field: "played" } }, `${moveText(table, d.played)} ${odds(d.played)}`),
        h("dt", {}, t("review.best")), h("dd", { dataset: { field: "best" } }, d.best ? `${moveText(table, d.best)} ${odds(d.best)}` : "—"),
        h("dt", {}, t("review.cost")), h("dd", { dataset: { field: "cost" } }, d.not_scored
          ? t("review.notScored", { reason: notScoredWords(d) })
          : d.cost > 0 ? t("review.givenUp", { p: percent(d.cost) }) : t("edit.none"))),
      d.view === "player" && !d.not_scored ? searchForm(pool, table, d) : null,
      d.not_scored && d.actor === null ? null : tryForm(pool, table, d));
  };
  body.replaceChildren(
    h("p.hint", {}, result.player === null
      ? t("review.public") : t("review.of", { name: playerName(table, result.player) })),
    h("div.review-nav", {},
      h("button.secondary", { dataset: { action: "review-prev" }, onclick: () => step(-1), "aria-label": t("review.previous") }, "‹"),
      slider,
      h("button.secondary", { dataset: { action: "review-next" }, onclick: () => step(1), "aria-label": t("review.next") }, "›")),
    costliest >= 0 ? h("button.link", { dataset: { action: "review-costliest" }, onclick: () => step(costliest - index) },
      t("review.goCostliest")) : null,
    card);
  draw();
}

/** "Ask the search" at one of my decisions, with the Search mode's budget (a phone answers in seconds):
 * its pick, and the win chance its rollouts give it and my move. */
function searchForm(pool, table, decision) {
  const answer = h("p.review-search", { dataset: { field: "search" } });
  const run = () => {
    answer.dataset.state = "busy";
    answer.textContent = t("review.searching");
    pool.request("review", { table, event: decision.event, search: SEARCH.iterations, search_work: SEARCH.work }).then((judged) => {
      const s = judged.search;
      answer.dataset.state = "done";
      answer.textContent = !s.searched ? t("review.notSearched", { reason: searchRefusalWords(s.reason_why, table) || s.reason })
        : t("review.searched", {
          games: s.iterations, move: moveText(table, s.pick), win: percent(s.pick.win),
          played: s.played_win === null ? t("review.playedNotTried") : percent(s.played_win),
        });
    }, (error) => {
      answer.dataset.state = "error";
      answer.textContent = engineErrorWords(error, table);
    });
  };
  return h("div.review-search-row", {},
    h("button.secondary", { dataset: { action: "review-search" }, onclick: run }, t("review.askSearch", { games: SEARCH.iterations })),
    answer);
}

/** "Try another move here": a dual cut on any teammate wire with any value; the odds that follow. */
function tryForm(pool, table, decision) {
  const targets = [];
  table.players.forEach((player, p) => {
    if (p === decision.actor) return;
    player.stands.forEach((stand, s) => {
      const size = typeof stand === "number" ? stand : stand.size;
      for (let j = 0; j < size; j += 1) targets.push({ player: p, stand: s, slot: j });
    });
  });
  const keys = possibleKeys(table.wires);
  const values = [...keys.blue.map((k) => Math.floor(Number(k))), ...(keys.yellow.length ? ["yellow"] : [])];
  const target = h("select", { "aria-label": t("review.wire"), dataset: { field: "try-target" } },
    targets.map((at, i) => h("option", { value: i }, slotName(table, at))));
  const value = h("select", { "aria-label": t("review.value"), dataset: { field: "try-value" } },
    values.map((v) => h("option", { value: JSON.stringify(v) }, valueLabel(v))));
  const answer = h("p.review-tried", { dataset: { field: "tried" } });
  const run = () => {
    const move = { kind: "dual_cut", target: targets[Number(target.value)], value: JSON.parse(value.value) };
    answer.textContent = "…";
    answer.dataset.state = "busy";
    pool.request("review", { table, event: decision.event, move }).then((tried) => {
      answer.dataset.state = "done";
      answer.textContent = tried.not_scored
        ? t("review.notScoredTried", { reason: notScoredWords(tried) })
        : t("review.tried", { move: moveText(table, tried.tried), odds: odds(tried.tried), cost: tried.cost > 0 ? percent(tried.cost) : t("edit.none") });
    }, (error) => {
      answer.dataset.state = "error";
      answer.textContent = engineErrorWords(error, table);
    });
  };
  return h("details.review-try", {},
    h("summary", {}, t("review.try")),
    h("div.review-try-row", {}, target, value,
      h("button.primary", { dataset: { action: "review-try" }, onclick: run }, t("review.tryButton"))),
    answer,
    h("p.hint", {}, t("review.hypothetical")));
}
