// The demo photos for scripts/seed.ts: rendered by code in worker threads (several cores share the
// work), each stored with the smaller copies an upload gets (docs/decisions/123-photo-variants.md),
// made by the same code and binding as in the Worker (Wrangler's offline Images). Renders and copies
// are kept on disk between runs, keyed by the code that makes them.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { PHOTO_VARIANTS, photoVariantKey, type PhotoVariantName } from "../../domain/photos";
import { makePhotoVariants, VARIANT_CACHE_CONTROL, type PhotoBucket, type PhotoTransforms } from "../../worker/lib/photo-variants";
import { ROOT } from "../local-env.mjs";
import type { ImageSpec } from "./images";

/** What a render or a copy depends on: a change to any of these makes new ones. */
const RENDER_SOURCES = [
  "scripts/seed/raster.ts",
  "scripts/seed/painter.ts",
  "scripts/seed/images.ts",
  "scripts/seed/motifs-creative.ts",
  "scripts/seed/motifs-dolls.ts",
  "scripts/seed/motifs-games.ts",
  "scripts/seed/motifs-vehicles.ts",
];
const VARIANT_SOURCES = ["domain/photos.ts", "worker/lib/photo-variants.ts"];

function cacheDir(kind: string, sources: string[]): string {
  const version = createHash("sha256");
  for (const f of sources) version.update(readFileSync(path.join(ROOT, f)));
  return path.join(ROOT, "node_modules", ".cache", `lekebytte-demo-${kind}`, version.digest("hex").slice(0, 16));
}

const sha = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex").slice(0, 24);

/** Write a cache file; a read-only node_modules only costs speed. */
function remember(file: string, bytes: Uint8Array): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, bytes);
  } catch {
    // not kept
  }
}

/** Every demo photo as a JPEG, by job id. */
export async function renderAll(jobs: { id: string; spec: ImageSpec }[]): Promise<Map<string, Uint8Array>> {
  const dir = cacheDir("images", RENDER_SOURCES);
  const fileOf = (spec: ImageSpec) => path.join(dir, `${sha(JSON.stringify(spec))}.jpg`);
  const out = new Map<string, Uint8Array>();
  const todo: typeof jobs = [];
  for (const job of jobs) {
    const file = fileOf(job.spec);
    if (existsSync(file)) out.set(job.id, readFileSync(file));
    else todo.push(job);
  }
  if (todo.length === 0) return out;

  const workers = Math.max(1, Math.min(4, os.availableParallelism(), todo.length));
  const slices: (typeof jobs)[] = Array.from({ length: workers }, () => []);
  todo.forEach((job, i) => slices[i % workers].push(job));
  const specOf = new Map(todo.map((j) => [j.id, j.spec]));
  await Promise.all(
    slices.map(
      (slice) =>
        new Promise<void>((resolve, reject) => {
          const worker = new Worker(new URL("./render-worker.ts", import.meta.url), { workerData: { specs: slice } });
          let received = 0;
          worker.on("message", ({ id, bytes }: { id: string; bytes: Uint8Array }) => {
            out.set(id, bytes);
            received++;
            remember(fileOf(specOf.get(id)!), bytes);
          });
          worker.on("error", reject);
          worker.on("exit", (code) =>
            code === 0 && received === slice.length ? resolve() : reject(new Error(`render worker exited with ${code}`)),
          );
        }),
    ),
  );
  return out;
}

interface StoredFile {
  key: string;
  bytes: Uint8Array;
  contentType: string;
  cacheControl: string;
}

/** A photo's copies, from the disk cache or made through the binding (and then kept). */
async function variantFiles(transforms: PhotoTransforms, key: string, photo: Uint8Array, dir: string): Promise<StoredFile[]> {
  const file = path.join(dir, `${sha(photo)}.json`);
  let made: { name: string; contentType: string; bytes: string }[];
  if (existsSync(file)) made = JSON.parse(readFileSync(file, "utf8"));
  else {
    made = (await makePhotoVariants(transforms, photo, "image/jpeg")).map((v) => ({
      name: v.variant.name,
      contentType: v.contentType,
      bytes: Buffer.from(v.bytes).toString("base64"),
    }));
    // Only a complete set is kept: a copy the binding could not make is tried again next time.
    if (made.length === PHOTO_VARIANTS.length) remember(file, new TextEncoder().encode(JSON.stringify(made)));
  }
  return made.map((v) => ({
    key: photoVariantKey(key, v.name as PhotoVariantName),
    bytes: Buffer.from(v.bytes, "base64"),
    contentType: v.contentType,
    cacheControl: VARIANT_CACHE_CONTROL,
  }));
}

/** Store the demo photos (JPEG) in R2, each with its copies beside it. */
export async function storeDemoPhotos(
  env: { IMAGES: PhotoBucket; IMAGE_TRANSFORMS: PhotoTransforms },
  photos: { key: string; bytes: Uint8Array }[],
): Promise<void> {
  const dir = cacheDir("variants", VARIANT_SOURCES);
  for (let i = 0; i < photos.length; i += 8) {
    const batch = photos.slice(i, i + 8);
    const files = (
      await Promise.all(
        batch.map(async ({ key, bytes }) => [
          { key, bytes, contentType: "image/jpeg", cacheControl: "public, max-age=3600" },
          ...(await variantFiles(env.IMAGE_TRANSFORMS, key, bytes, dir)),
        ]),
      )
    ).flat();
    await Promise.all(
      files.map((f) => env.IMAGES.put(f.key, f.bytes, { httpMetadata: { contentType: f.contentType, cacheControl: f.cacheControl } })),
    );
  }
}
