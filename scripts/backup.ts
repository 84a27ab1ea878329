// `npm run backup`: a dated folder under backups/ (gitignored) with D1 table by table (one SQL file of
// INSERT statements per table), the R2 buckets' object lists (locally with the bodies) and
// manifest.json. How to use it and what it holds: docs/deploy.md "Backups and restore".
//
//   npm run backup                          the local state in STATE_DIR (default .wrangler/state)
//   npm run backup -- --remote --env production
//                                           the deployed database and buckets (needs `wrangler login`
//                                           or CLOUDFLARE_API_TOKEN, and CLOUDFLARE_ACCOUNT_ID for R2)
//   --out <dir>                             somewhere else than backups/
//
// Stop `npm start` first for a local backup of a quiet state (the reads go through wrangler, so a
// running server does not break it, but a write in between can land in one table and not another).
import path from "node:path";
import { parseArgs } from "node:util";
import { backup } from "./backup/backup";
import { ROOT, OFFLINE_ENV, shownPath, stateDir } from "./local-env.mjs";

const { values } = parseArgs({
  options: { remote: { type: "boolean", default: false }, env: { type: "string" }, out: { type: "string" } },
});
if (!values.remote) for (const [key, value] of Object.entries(OFFLINE_ENV)) process.env[key] ??= value;

backup({
  remote: values.remote ?? false,
  env: values.env,
  stateDir: stateDir(),
  outDir: path.resolve(ROOT, values.out ?? "backups"),
  log: (line) => console.log(`▸ ${line}`),
}).then(
  ({ folder }) => {
    console.log(`✔ Sikkerhetskopi i ${shownPath(folder)}`);
    console.log(`  Gjenopprett lokalt: STATE_DIR=.wrangler/restore npm run restore -- ${shownPath(folder)}`);
    process.exit(0);
  },
  (err) => {
    console.error(`✗ ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  },
);
