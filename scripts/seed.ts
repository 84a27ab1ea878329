// `npm run seed` (and the first `npm start`): loads the demo data into the same persisted local D1 and
// R2 that `wrangler dev --persist-to $STATE_DIR` serves. It only seeds an empty database (no users
// besides the system user); `npm run reset` starts over. Do not run it while the server is running:
// both would write the same SQLite files.
//
// Bindings come from wrangler's getPlatformProxy with persist path `$STATE_DIR/v3`, which is exactly
// where `--persist-to $STATE_DIR` keeps its data (wrangler joins "v3" to the --persist-to directory).
import { mkdirSync, writeFileSync } from "node:fs";
import { hashPassword } from "../worker/features/auth/password";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, SYSTEM_USER } from "./demo-accounts.mjs";
import { localBindings } from "./local-bindings";
import { OFFLINE_ENV, persistPath, seedMarker, stateDir } from "./local-env.mjs";
import { CONVERSATIONS, DEMO_DEALS, LISTINGS, minutes } from "./seed/data";
import { dealStatements } from "./seed/deal-statements";
import type { ImageSpec } from "./seed/images";
import { renderAll, storeDemoPhotos } from "./seed/photos";
import {
  type SeedDb,
  type Seeding,
  type Stmt,
  conversationStatements,
  listingIdsAndPhotos,
  listingStatements,
  moderationStatements,
  userStatements,
} from "./seed/statements";
import type { PhotoBucket, PhotoTransforms } from "../worker/lib/photo-variants";

// Offline and quiet unless the caller chose otherwise (npm start passes the same settings).
for (const [key, value] of Object.entries(OFFLINE_ENV)) process.env[key] ??= value;

// Minimal structural types for the three bindings we use (the full ones live in worker-configuration.d.ts).
interface Bindings {
  DB: SeedDb;
  IMAGES: PhotoBucket;
  IMAGE_TRANSFORMS: PhotoTransforms;
}

const quiet = process.argv.includes("--quiet");
const log = (msg: string) => {
  if (!quiet) console.log(msg);
};

async function main(): Promise<void> {
  const started = performance.now();
  const now = Date.now();
  const iso = (agoMinutes: number) => new Date(now - minutes(agoMinutes)).toISOString();

  // Render photos while wrangler's local runtime starts (first run only; they are cached on disk).
  const imageJobs = LISTINGS.flatMap((l) =>
    Array.from({ length: l.image.count }, (_, i) => ({
      id: `${l.ref}-${i}`,
      spec: { motif: l.image.motif, color: l.image.color, seed: `${l.ref}:${l.title}`, view: i } satisfies ImageSpec,
    })),
  );
  const imagesReady = renderAll(imageJobs);
  imagesReady.catch(() => undefined); // handled below; avoids an unhandled rejection if we exit early

  // The same data as `wrangler dev --persist-to $STATE_DIR`, with only the three bindings the seed needs.
  const proxy = await localBindings<Bindings>(persistPath(), { d1: true, buckets: ["IMAGES"], images: true });
  try {
    const env = proxy.env;
    const existing = await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE id != ?")
      .bind(SYSTEM_USER.id)
      .first<{ n: number }>()
      .catch((err: unknown) => {
        if (String(err).includes("no such table")) {
          throw new Error(
            `Databasen i ${stateDir()} har ingen tabeller. Kjør migreringene først (npm start gjør det, eller: npm run db:migrate).`,
          );
        }
        throw err;
      });
    if (existing && existing.n > 0) {
      log(`Demodata: databasen har allerede ${existing.n} brukere – hopper over (npm run reset for å starte på nytt).`);
      writeMarker({ skipped: true, users: existing.n });
      return; // process.exit() below also stops the render workers
    }
    log("Laster demodata …");

    // ---- users and profiles -----------------------------------------------------------------
    const passwordHash = await hashPassword(DEMO_PASSWORD); // one hash (own salt) shared by the demo logins
    const stmts: Stmt[] = [];
    const db = env.DB;
    const { uid, senderId } = userStatements({ db, stmts, iso }, passwordHash);

    // ---- images (R2) --------------------------------------------------------------------------
    const rendered = await imagesReady;
    const { lid, listingImages, puts } = listingIdsAndPhotos(now, uid, rendered);
    // Each photo with its smaller copies, as an upload stores them (decision 123).
    await storeDemoPhotos(env, puts);

    // ---- listings, conversations, completed deals, favourites and moderation ------------------------
    const seeding: Seeding = { db, stmts, iso, uid, senderId, lid };
    listingStatements(seeding, listingImages);
    conversationStatements(seeding, now);
    dealStatements(seeding);
    moderationStatements(seeding);

    // One transaction: either all demo data is in, or none of it.
    await db.batch(stmts);

    const missing = await missingPostalCodes(env);
    if (missing.length) console.warn(`Advarsel: postnumre uten poststed i postal_places: ${missing.join(", ")}`);

    writeMarker({ skipped: false, users: DEMO_ACCOUNTS.length, listings: LISTINGS.length, images: puts.length });
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    log(
      `Demodata lastet: ${DEMO_ACCOUNTS.length} brukere, ${LISTINGS.length} annonser, ${puts.length} bilder, ` +
        `${CONVERSATIONS.length + DEMO_DEALS.length} samtaler, 1 bytteforslag, ${DEMO_DEALS.length} fullførte handler (${secs} s).`,
    );
  } finally {
    await proxy.dispose();
  }
}

async function missingPostalCodes(env: Bindings): Promise<string[]> {
  const codes = [...new Set([...LISTINGS.map((l) => l.postalCode), ...DEMO_ACCOUNTS.map((a) => a.postalCode)])];
  const missing: string[] = [];
  for (const code of codes) {
    const row = await env.DB.prepare("SELECT place_name FROM postal_places WHERE postal_code = ?")
      .bind(code)
      .first<{ place_name: string }>();
    if (!row) missing.push(code);
  }
  return missing;
}

function writeMarker(info: Record<string, unknown>): void {
  mkdirSync(stateDir(), { recursive: true });
  writeFileSync(seedMarker(), `${JSON.stringify({ seededAt: new Date().toISOString(), ...info }, null, 2)}\n`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error("Demodata kunne ikke lastes:", err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
