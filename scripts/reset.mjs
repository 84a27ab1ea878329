#!/usr/bin/env node
// `npm run reset`: delete the local state (D1, R2, Durable Objects, …) that `npm start` persists, so the
// next start migrates an empty database and loads the demo data again. STATE_DIR overrides the
// default .wrangler/state. Stop the server first.
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { ROOT, shownPath, stateDir } from "./local-env.mjs";

const dir = stateDir();
const shown = shownPath(dir);
if (dir === ROOT || dir === path.parse(dir).root) {
  console.error(`Nekter å slette ${dir}.`);
  process.exit(1);
}
if (!existsSync(dir)) {
  console.log(`Ingenting å slette: ${shown} finnes ikke.`);
} else {
  rmSync(dir, { recursive: true, force: true });
  console.log(`Slettet lokal data i ${shown}. Neste «npm start» begynner på nytt med demodata.`);
}
