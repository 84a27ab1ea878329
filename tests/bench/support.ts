// Small helpers the benchmarks share.
import type { ChildProcess } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import type { DatabaseSync } from "node:sqlite";
import type { BenchListing } from "./listing-generator";

/** The local D1 database file under a `--persist-to` directory. */
export function d1File(state: string): string {
  const dir = path.join(state, "v3/d1/miniflare-D1DatabaseObject");
  const file = readdirSync(dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  if (!file) throw new Error(`no D1 file in ${dir}`);
  return path.join(dir, file);
}

/** Stop a detached server's process group (wrangler and workerd) now and when the script exits. */
export function stopOnExit(server: ChildProcess): () => void {
  const stop = () => {
    try {
      process.kill(-server.pid!, "SIGTERM");
    } catch {
      /* already gone */
    }
  };
  process.on("exit", stop);
  return stop;
}

/**
 * Insert the bench users (with profiles) into an open D1 file, and return the function that inserts
 * a generated listing (the FTS triggers run as in production).
 */
export function benchWriter(db: DatabaseSync, users: readonly string[]): (l: BenchListing) => void {
  const insertUser = db.prepare("INSERT INTO users (id, email, password_hash, email_confirmed_at) VALUES (?, ?, '!', '2025-01-01T00:00:00Z')");
  const insertProfile = db.prepare("INSERT INTO profiles (user_id, display_name) VALUES (?, ?)");
  users.forEach((id, i) => {
    insertUser.run(id, `bench${i}@lekebytte.test`);
    insertProfile.run(id, `Bruker ${i}`);
  });
  const insert = db.prepare(
    `INSERT INTO listings (id, user_id, title, description, category, age_range, condition_rating, price, is_free, is_trade_offer,
       postal_code, images, status, is_hidden, seo_slug, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return (l) => {
    insert.run(l.id, l.user_id, l.title, l.description, l.category, l.age_range, l.condition_rating, l.price, l.is_free, l.is_trade_offer,
      l.postal_code, l.images, l.status, l.is_hidden, l.seo_slug, l.created_at, l.updated_at);
  };
}

/** Wait until `url` answers 2xx. A request that arrives while wrangler is still starting can hang for good: each gets 5 s. */
export async function waitFor(url: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(5_000) })).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`${url} did not answer`);
}
