// A backup folder's manifest.json: what is in the folder and what the restore checks against.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ObjectEntry } from "./r2";

export const MANIFEST_FORMAT = 1;

export interface TableEntry {
  name: string;
  /** The table's rows as INSERT statements, relative to the folder. */
  file: string;
  rows: number;
  columns: string[];
}

export interface BucketEntry {
  binding: string;
  bucket: string;
  /** Whether the folder holds the bodies (local backups) or only the list (remote ones). */
  bodies: boolean;
  count: number;
  bytes: number;
  objects: ObjectEntry[];
}

export interface Manifest {
  format: number;
  createdAt: string;
  source: "local" | "remote";
  /** The wrangler environment of a remote backup (staging, production), if one was named. */
  env: string | null;
  database: {
    name: string;
    /** The migrations applied to it, in order; the last one is its level. */
    migrations: string[];
    level: string | null;
    /** A remote database's Time Travel bookmark taken just before the rows were read. */
    bookmark: string | null;
  };
  tables: TableEntry[];
  /** Virtual tables (the search index) not in the backup: the restore writes them from the rows. */
  rebuilt: string[];
  buckets: BucketEntry[];
}

export function writeManifest(folder: string, manifest: Manifest): void {
  writeFileSync(path.join(folder, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
}

export function readManifest(folder: string): Manifest {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(folder, "manifest.json"), "utf8")) as Manifest;
  } catch (err) {
    throw new Error(`Fant ingen lesbar manifest.json i ${folder}: ${err instanceof Error ? err.message : err}`);
  }
  if (manifest.format !== MANIFEST_FORMAT) throw new Error(`Ukjent format ${manifest.format} i ${folder} (kjenner ${MANIFEST_FORMAT})`);
  return manifest;
}

/** A folder name that sorts by time: `2026-11-30T10-42-05Z-local`. */
export function folderName(date: Date, source: "local" | "remote", env?: string): string {
  const stamp = date
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replaceAll(":", "-");
  return `${stamp}-${source}${env ? `-${env}` : ""}`;
}
