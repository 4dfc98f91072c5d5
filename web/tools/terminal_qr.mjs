// Build-time helper (run by `build.py serve` under Node, never shipped): prints
// a URL as a QR code in the terminal, drawn by the page's own encoder
// (web/js/qr.js), so the code a phone scans comes from the one encoder the e2e
// tests check. Two modules per character cell with half blocks (▀ ▄ █), black on
// white forced by ANSI colours so it scans on dark and light terminals alike,
// with the 4-module quiet zone the standard asks for.
// Usage: node terminal_qr.mjs TEXT
import { readFileSync } from "node:fs";

const text = process.argv[2];
if (!text) {
  console.error("usage: node terminal_qr.mjs TEXT");
  process.exit(2);
}
// qr.js is an ES module named .js with no package.json around it: imported from
// its source, so every Node version since 18 reads it as a module.
const source = readFileSync(new URL("../js/qr.js", import.meta.url), "utf8");
const { encodeQr } = await import(`data:text/javascript;base64,${Buffer.from(source).toString("base64")}`);

const QUIET = 4;
const code = encodeQr(text);
const n = code.size + 2 * QUIET;
const dark = (x, y) => x >= QUIET && y >= QUIET && x < QUIET + code.size && y < QUIET + code.size
  && code.modules[y - QUIET][x - QUIET];
const CELL = { "00": " ", "10": "▀", "01": "▄", "11": "█" };  // key: top, bottom dark
const lines = [];
for (let y = 0; y < n; y += 2) {
  let line = "";
  for (let x = 0; x < n; x++) line += CELL[`${Number(dark(x, y))}${Number(y + 1 < n && dark(x, y + 1))}`];
  lines.push(`\x1b[30;107m${line}\x1b[0m`);
}
process.stdout.write(lines.join("\n") + "\n");
