// What tests/scripts/backup-restore.test.ts compares between the original and the restored state:
// run with tsx (wrangler's proxy needs Node, not the tests' jsdom) as
//   tsx tests/scripts/support/state-snapshot.ts <manifest.json> <STATE_DIR> [<STATE_DIR> …]
// and prints a JSON array, one entry per state: every backed-up table's rows in a fixed order, what
// the Worker's search finds for each of SEARCHES, and the IMAGES bucket's objects (key, size, etag,
// metadata, a hash of the body).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { searchParamsSchema } from "../../../domain/schemas/search";
import { searchListings } from "../../../worker/features/search/search";
import { ident } from "../../../scripts/backup/d1-read";
import type { Manifest } from "../../../scripts/backup/manifest";
import type { Bucket } from "../../../scripts/backup/r2";
import type { Database } from "../../../scripts/backup/restore-d1";
import { localBindings } from "../../../scripts/local-bindings";
import { SEARCHES } from "./searches";

async function snapshot(stateDir: string, manifest: Manifest) {
  const { env, dispose } = await localBindings<{ DB: Database; IMAGES: Bucket }>(path.join(stateDir, "v3"), {
    d1: true,
    buckets: ["IMAGES"],
  });
  try {
    const tables: Record<string, unknown[]> = {};
    for (const t of manifest.tables) {
      const sql = `SELECT * FROM ${ident(t.name)} ORDER BY ${t.columns.map(ident).join(", ")}`;
      tables[t.name] = (await env.DB.prepare(sql).all()).results;
    }
    const searches = [];
    for (const search of SEARCHES) {
      searches.push(await searchListings(env.DB as never, searchParamsSchema.parse(search)));
    }
    const objects = [];
    let cursor: string | undefined;
    do {
      const page = await env.IMAGES.list({ cursor, include: ["httpMetadata", "customMetadata"] });
      for (const o of page.objects) {
        const body = Buffer.from(await (await env.IMAGES.get(o.key))!.arrayBuffer());
        // Not `version` or `uploaded`: a put makes new ones.
        const { key, size, etag, httpMetadata, customMetadata } = o;
        objects.push({ key, size, etag, httpMetadata, customMetadata, sha256: createHash("sha256").update(body).digest("hex") });
      }
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
    return { tables, searches, objects };
  } finally {
    await dispose();
  }
}

async function main(): Promise<void> {
  const [manifestFile, ...stateDirs] = process.argv.slice(2);
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Manifest;
  const json = JSON.stringify(await Promise.all(stateDirs.map((dir) => snapshot(dir, manifest))));
  // A pipe takes large output asynchronously: exit once it has all of it.
  await new Promise<void>((resolve) => process.stdout.write(json, () => resolve()));
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
