// First-use help (3 short screens, shown on the first visit above the new-game
// form and from the menu) and the "About the numbers" page.
import { h, openSheet } from "./ui.js";

const SCREENS = [
  ["1 · Set up", "Pick the mission and the players, say who uses this phone, and tap your own wires in. Your wires never leave this phone unless you export them."],
  ["2 · Record what happens", "After each turn, tap what the table saw: the player to move is already chosen, then the wire, the value and the outcome; a cut on a red wire is “Red — the bomb exploded” (the game ends there). Undo takes back any change, a delete too."],
  ["3 · Read the table", "Each wire shows its slot number, its most likely value and that value's chance; a red badge R12% is the chance it is red. The box at the top counts the detonator and says whose turn it is. Suggestions rank the next cuts."],
];

function pager(onDone) {
  let index = 0;
  const box = h("div.help-pages");
  const draw = () => {
    const [title, text] = SCREENS[index];
    box.replaceChildren(
      h("h3.help-title", {}, title),
      h("p", {}, text),
      h("div.actions", {},
        index > 0 ? h("button.secondary", { dataset: { action: "help-back" }, onclick: () => { index -= 1; draw(); } }, "Back") : null,
        index < SCREENS.length - 1
          ? h("button.primary", { dataset: { action: "help-next" }, onclick: () => { index += 1; draw(); } }, `Next (${index + 1}/${SCREENS.length})`)
          : h("button.primary", { dataset: { action: "help-done" }, onclick: onDone }, "Got it")));
  };
  draw();
  return box;
}

/** The first-use help as a card (not a dialog: the form below stays usable). */
export function helpCard(onDismiss) {
  const card = h("section.card.help-card", { "aria-label": "first-use help" }, h("h2", {}, "How this page helps at the table"));
  const close = () => { onDismiss(); card.remove(); };
  card.append(pager(close), h("button.link", { dataset: { action: "help-skip" }, onclick: close }, "Skip the help"));
  return card;
}

export function showHelp() {
  let close = null;
  close = openSheet("How to use the page", pager(() => close()),
    h("p.hint", { id: "help-live" }, h("b", {}, "One live game on every phone. "),
      "Menu, Live table: the other phones join by scanning a code (or pasting it), phone to phone on the table's Wi-Fi, "
      + "with no server and no internet. Every event recorded on any phone reaches the others; this phone orders the log. "
      + "Only the public table travels, never anyone's wires. There is no server to outgrow: a club with many tables "
      + "uses the same static page, one host phone per table."));
}

export function showAbout() {
  openSheet("About the numbers",
    h("div.about-numbers", {},
      h("p", {}, h("b", {}, "Exact, not estimated. "),
        "The page counts every way the wires could have been dealt that fits everything recorded (and, in my view, my own wires): these are the ",
        h("i", {}, "possible deals"), ". A wire's chance of being a 7 is the share of those deals where it is a 7. No sampling, no rounding until the percentage is shown."),
      h("p", {}, h("b", {}, "Public view. "),
        "The same count without my wires: what every teammate can deduce from the table alone. Use it to see what a call tells the others."),
      h("p", { id: "about-deals" }, h("b", {}, "Possible deals. "),
        "The 4 wires of a value are counted as different tiles (they are shuffled as such), so the count never falls to 1. "
        + "Once every wire is cut nothing is hidden: the page says the deal is known, and a tap still shows the count."),
      h("p", {}, h("b", {}, "Red and yellow badges. "),
        "R12% on a wire: in 12% of the possible deals it is red, so cutting it would explode the bomb. Y5%: the chance it is yellow."),
      h("p", {}, h("b", {}, "Suggestions. "),
        "Each call shows its chance of success, its red risk and the information it gives: how much the call is expected to narrow the possible deals, in bits (1 bit = halving them)."),
      h("p", {}, h("b", {}, "Game state. "),
        "With N players the N-th failure explodes. The Stabilizer keeps the dial still; a tripwire success and the Rewinder move it back one space (the Rewinder never past the start). The Coffee Mug names who plays next; play then goes on in seat order from them. Equipment unlocks when 2 wires of its number are cut (4 for double-numbered cards)."),
      h("p", { id: "about-dial" }, h("b", {}, "Mission dials. "),
        "Mission 51 starts the dial 1 space further back: one more failure survives. Mission 41 starts it on the space next to the skull: the first failure explodes, unless a tripwire success has moved the dial back first. Missions 55, 60 and 62 also start on a printed space that this page does not know: it keeps the standard start there, so count the failures those cards allow yourself.")));
}
