// The page's detonator (web/js/gamestate.js) on table files, for tests/test_dial.py:
//   node tests/page_dial.mjs TABLES.json OUT.json
// TABLES.json: a list of table files; OUT.json: per table, per prefix of its events
// (0 … all), the dial's spaces moved from its start and the spaces to the skull at the start.
import { readFileSync, writeFileSync } from "node:fs";
import { gameState } from "../web/js/gamestate.js";

const [tablesPath, outPath] = process.argv.slice(2);
const tables = JSON.parse(readFileSync(tablesPath, "utf8"));
const out = tables.map((table) => Array.from({ length: table.events.length + 1 }, (_, upto) => {
  const { failures, limit } = gameState(table, upto);
  return [failures, limit];
}));
writeFileSync(outPath, JSON.stringify(out));
