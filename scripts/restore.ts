// `npm run restore -- <backup folder>`: loads a backup (npm run backup) into an empty local state:
// STATE_DIR (default .wrangler/state), which must hold no data yet (a new directory, or after
// `npm run reset`). Then `STATE_DIR=… npm start` serves it. docs/deploy.md "Backups and restore".
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { restore } from "./backup/restore";
import { OFFLINE_ENV, shownPath, stateDir } from "./local-env.mjs";

for (const [key, value] of Object.entries(OFFLINE_ENV)) process.env[key] ??= value;
const { positionals } = parseArgs({ allowPositionals: true });
if (positionals.length !== 1) {
  console.error("Bruk: npm run restore -- <mappe med sikkerhetskopi>   (STATE_DIR=… for en annen lokal mappe)");
  process.exit(2);
}
const target = stateDir();

restore({ folder: path.resolve(positionals[0]), stateDir: target, log: (line) => console.log(`▸ ${line}`) }).then(
  (manifest) => {
    console.log(`✔ Sikkerhetskopien fra ${manifest.createdAt} er lagt inn i ${shownPath(target)}`);
    const env = process.env.STATE_DIR ? `STATE_DIR=${process.env.STATE_DIR} ` : "";
    console.log(`  Start den: ${env}npm start`);
    process.exit(0);
  },
  (err) => {
    console.error(`✗ ${err instanceof Error ? err.message : err}`);
    // A restore that stopped half-way leaves a state nobody should serve: it is not cleaned up here.
    if (existsSync(path.join(target, "v3")) && !String(err).includes("har allerede lokal data")) {
      console.error(`  Slett det som ble lagt inn (STATE_DIR=${shownPath(target)} npm run reset) før et nytt forsøk.`);
    }
    process.exit(1);
  },
);
