// The R2 part of a backup: every object's key, size, etag and metadata, and for the local state the
// bodies too. Locally the buckets are read through the local state's bindings (wrangler has no
// command that lists objects); remotely through Cloudflare's REST API ("List Objects",
// GET /accounts/{account_id}/r2/buckets/{bucket_name}/objects, cursor-paged), with the same
// CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID wrangler uses in CI. A remote backup lists the
// objects and copies no body: R2 keeps them, and the list is what tells a restore drill what a
// restored database refers to (docs/decisions/137).
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export interface ObjectEntry {
  key: string;
  size: number;
  etag: string;
  uploaded: string;
  httpMetadata?: Record<string, unknown>;
  customMetadata?: Record<string, string>;
  /** The body's file in the backup folder (local backups). */
  file?: string;
}

/** The few parts of an R2 binding the backup and the restore use (the full type is worker-configuration.d.ts). */
export interface Bucket {
  list(options: { cursor?: string; include?: ("httpMetadata" | "customMetadata")[] }): Promise<{
    objects: { key: string; size: number; etag: string; uploaded: Date; httpMetadata?: object; customMetadata?: Record<string, string> }[];
    truncated: boolean;
    cursor?: string;
  }>;
  get(key: string): Promise<{ arrayBuffer(): Promise<ArrayBuffer> } | null>;
  put(
    key: string,
    value: ArrayBuffer | Uint8Array,
    options?: { httpMetadata?: object; customMetadata?: Record<string, string> },
  ): Promise<unknown>;
}

/** A body's file name: keys nest ("{key}/800.webp" under "{key}"), so they cannot be paths. */
export const bodyFile = (binding: string, key: string) => `r2/${binding}/${createHash("sha256").update(key).digest("hex")}`;

/** Runs `task` over `items`, `width` at a time (the proxy answers each call over a local socket). */
async function eachAtOnce<T>(items: T[], width: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
}

/** Lists a local bucket and copies every body into `folder`. */
export async function copyLocalBucket(bucket: Bucket, binding: string, folder: string): Promise<ObjectEntry[]> {
  mkdirSync(path.join(folder, "r2", binding), { recursive: true });
  const listed: Awaited<ReturnType<Bucket["list"]>>["objects"] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ cursor, include: ["httpMetadata", "customMetadata"] });
    listed.push(...page.objects);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  const entries = new Map<string, ObjectEntry>();
  await eachAtOnce(listed, 8, async (o) => {
    const body = await bucket.get(o.key);
    if (!body) return; // deleted while we listed
    const file = bodyFile(binding, o.key);
    writeFileSync(path.join(folder, file), Buffer.from(await body.arrayBuffer()));
    entries.set(o.key, {
      key: o.key,
      size: o.size,
      etag: o.etag,
      uploaded: o.uploaded.toISOString(),
      httpMetadata: { ...o.httpMetadata },
      customMetadata: o.customMetadata,
      file,
    });
  });
  // In the list's (key) order, whatever order the bodies arrived in.
  return listed.flatMap((o) => entries.get(o.key) ?? []);
}

interface RemoteObject {
  key: string;
  size: number;
  etag: string;
  last_modified: string;
  http_metadata?: Record<string, unknown>;
  custom_metadata?: Record<string, string>;
}

/** Lists a remote bucket through the REST API (no bodies). */
export async function listRemoteBucket(bucketName: string, fetcher: typeof fetch = fetch): Promise<ObjectEntry[]> {
  const token = process.env.CLOUDFLARE_API_TOKEN;
  const account = process.env.CLOUDFLARE_ACCOUNT_ID;
  if (!token || !account) {
    throw new Error("Sett CLOUDFLARE_API_TOKEN (med R2-lesetilgang) og CLOUDFLARE_ACCOUNT_ID for å liste R2 i en ekstern sikkerhetskopi.");
  }
  const entries: ObjectEntry[] = [];
  let cursor: string | undefined;
  do {
    const url = new URL(`https://api.cloudflare.com/client/v4/accounts/${account}/r2/buckets/${bucketName}/objects`);
    url.searchParams.set("per_page", "1000");
    if (cursor) url.searchParams.set("cursor", cursor);
    const res = await fetcher(url, { headers: { Authorization: `Bearer ${token}` } });
    const body = (await res.json()) as {
      success: boolean;
      errors?: { message: string }[];
      result: RemoteObject[];
      result_info?: { cursor?: string; is_truncated?: boolean };
    };
    if (!res.ok || !body.success) throw new Error(`R2-listen for ${bucketName} feilet: ${res.status} ${JSON.stringify(body.errors ?? [])}`);
    for (const o of body.result) {
      entries.push({
        key: o.key,
        size: o.size,
        etag: o.etag,
        uploaded: o.last_modified,
        httpMetadata: o.http_metadata,
        customMetadata: o.custom_metadata,
      });
    }
    // The API gives a cursor while more may follow (its result_info documents no "truncated" flag).
    const next = body.result_info?.cursor;
    cursor = next && next !== cursor && body.result.length > 0 && body.result_info?.is_truncated !== false ? next : undefined;
  } while (cursor);
  return entries;
}

/** Puts the backup's bodies back into a local bucket, with their metadata; returns how many. */
export async function restoreBucket(bucket: Bucket, folder: string, objects: ObjectEntry[]): Promise<number> {
  const withBodies = objects.filter((o) => o.file);
  await eachAtOnce(withBodies, 8, async (o) => {
    const bytes = readFileSync(path.join(folder, o.file!));
    if (bytes.length !== o.size) throw new Error(`${o.file} har ${bytes.length} byte, manifestet sier ${o.size} (${o.key})`);
    await bucket.put(o.key, bytes, { httpMetadata: o.httpMetadata, customMetadata: o.customMetadata });
  });
  return withBodies.length;
}
