// The page's copy of the public state (web/js/gamestate.js publicState) on table files, for
// tests/test_public_state.py:
//   node tests/page_state.mjs TABLES.json OUT.json
// TABLES.json: a list of table files; OUT.json: per table, per prefix of its events (0 … all),
// the page's publicState (the core's PublicState.json shape).
import { readFileSync, writeFileSync } from "node:fs";
import { publicState } from "../web/js/gamestate.js";

const [tablesPath, outPath] = process.argv.slice(2);
const tables = JSON.parse(readFileSync(tablesPath, "utf8"));
const out = tables.map((table) => Array.from({ length: table.events.length + 1 }, (_, upto) => publicState(table, upto)));
writeFileSync(outPath, JSON.stringify(out));
