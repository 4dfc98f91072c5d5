// Small DOM helpers shared by the screens: element builder, bottom sheet,
// toasts, and the probability formatting every screen uses.

/**
 * h("button.primary", {onclick, dataset: {x: 1}}, "text", child) → element.
 * The tag may carry classes after dots. null/false children are skipped.
 */
export function h(tagWithClasses, attrs = {}, ...children) {
  const [tag, ...classes] = tagWithClasses.split(".");
  const element = document.createElement(tag || "div");
  if (classes.length) element.className = classes.join(" ");
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "dataset") Object.assign(element.dataset, value);
    else if (name === "style" && typeof value === "object") {
      for (const [property, setting] of Object.entries(value)) element.style.setProperty(property, setting);
    }
    else if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "class") element.className += ` ${value}`;
    else if (value === true) element.setAttribute(name, "");
    else element.setAttribute(name, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

const sheet = () => document.getElementById("sheet");
const backdrop = () => document.getElementById("sheet-backdrop");

/** Show a bottom sheet (a dialog on wide screens). Returns a function that closes it. */
export function openSheet(title, ...content) {
  const close = () => {
    sheet().hidden = true;
    backdrop().hidden = true;
    sheet().replaceChildren();
  };
  sheet().replaceChildren(
    h("div.sheet-head", {}, h("h2", {}, title), h("button.icon-button", { onclick: close, "aria-label": "Close" }, "✕")),
    h("div.sheet-body", {}, ...content),
  );
  sheet().hidden = false;
  backdrop().hidden = false;
  backdrop().onclick = close;
  sheet().querySelector(".sheet-head button").focus();
  return close;
}

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") closeSheet();
});

export function closeSheet() {
  if (!sheet().hidden) backdrop().click();
}

/** A short message at the bottom of the screen. kind: "info" | "error". */
export function toast(message, kind = "info", ms = 3500) {
  const element = h(`div.toast.${kind}`, { role: kind === "error" ? "alert" : "status" }, message);
  document.getElementById("toasts").append(element);
  setTimeout(() => element.remove(), ms);
}

/** A probability as the page shows it: "✓" when certain, else a whole percent. */
export function percent(p) {
  if (p >= 1) return "✓";
  const rounded = Math.round(p * 100);
  if (rounded >= 100) return ">99%";
  if (rounded <= 0) return "<1%";
  return `${rounded}%`;
}

/** A distribution {key: p} as [[key, p], ...], most likely first (ties: by key). */
export function ranked(distribution) {
  return Object.entries(distribution).sort((a, b) => b[1] - a[1] || Number(a[0]) - Number(b[0]));
}
