// What the scripts that work on data without a server (the seed, backup, restore) need from
// wrangler.toml, and the bindings of a local state (`wrangler dev --persist-to <dir>` keeps its data
// in `<dir>/v3`) through wrangler's getPlatformProxy, with only the bindings asked for: the rest of
// the Worker (assets, Durable Objects, queues, …) would only slow the proxy down or break it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { OFFLINE_ENV, WRANGLER_CONFIG } from "./local-env.mjs";

export interface ProjectConfig {
  name: string;
  compatibilityDate: string;
  /** The one D1 database (binding DB) and where its migrations are. */
  d1: { binding: string; databaseName: string; databaseId: string; migrationsDir: string };
  /** Every R2 bucket binding, in wrangler.toml's order. */
  buckets: { binding: string; bucketName: string }[];
  imagesBinding: string | null;
}

/** The parts of wrangler's resolved config read here. */
interface WranglerConfig {
  name?: string;
  compatibility_date?: string;
  d1_databases: { binding: string; database_name?: string; database_id?: string; migrations_dir?: string }[];
  r2_buckets: { binding: string; bucket_name?: string }[];
  images?: { binding: string };
}

/** wrangler.toml as wrangler reads it, for `env` (a wrangler environment) or the top level. */
export async function readProjectConfig(env?: string): Promise<ProjectConfig> {
  const { unstable_readConfig } = await import("wrangler");
  const config = unstable_readConfig({ config: WRANGLER_CONFIG, env }, { hideWarnings: true }) as WranglerConfig;
  const d1 = config.d1_databases.find((d) => d.binding === "DB");
  if (!d1?.database_id || !d1.database_name) throw new Error("wrangler.toml mangler D1-bindingen DB (med database_name og database_id)");
  return {
    name: config.name ?? "lekebytte",
    compatibilityDate: config.compatibility_date ?? "2025-01-01",
    d1: {
      binding: d1.binding,
      databaseName: d1.database_name,
      databaseId: d1.database_id,
      migrationsDir: path.resolve(path.dirname(WRANGLER_CONFIG), d1.migrations_dir ?? "migrations"),
    },
    buckets: config.r2_buckets.flatMap((b) => (b.bucket_name ? [{ binding: b.binding, bucketName: b.bucket_name }] : [])),
    imagesBinding: config.images?.binding ?? null,
  };
}

export interface BindingsWanted {
  d1?: boolean;
  /** R2 bindings by name (IMAGES, PRIVATE). */
  buckets?: string[];
  images?: boolean;
}

export interface LocalBindings<T> {
  env: T;
  dispose: () => Promise<void>;
}

/** The local state's bindings under `persistPath` (`<STATE_DIR>/v3`), as `wrangler dev` serves them. */
export async function localBindings<T>(persistPath: string, wanted: BindingsWanted): Promise<LocalBindings<T>> {
  for (const [key, value] of Object.entries(OFFLINE_ENV)) process.env[key] ??= value;
  const project = await readProjectConfig();
  const buckets = (wanted.buckets ?? []).map((binding) => {
    const bucket = project.buckets.find((b) => b.binding === binding);
    if (!bucket) throw new Error(`wrangler.toml mangler R2-bindingen ${binding}`);
    return { binding, bucket_name: bucket.bucketName };
  });
  if (wanted.images && !project.imagesBinding) throw new Error("wrangler.toml mangler Images-bindingen");
  const configDir = mkdtempSync(path.join(os.tmpdir(), "lekebytte-bindings-"));
  const configPath = path.join(configDir, "wrangler.json");
  writeFileSync(
    configPath,
    JSON.stringify({
      name: project.name,
      compatibility_date: project.compatibilityDate,
      ...(wanted.d1
        ? { d1_databases: [{ binding: "DB", database_name: project.d1.databaseName, database_id: project.d1.databaseId }] }
        : {}),
      ...(buckets.length ? { r2_buckets: buckets } : {}),
      ...(wanted.images ? { images: { binding: project.imagesBinding } } : {}),
    }),
  );
  const { getPlatformProxy } = await import("wrangler");
  const proxy = await getPlatformProxy<T & Record<string, unknown>>({
    configPath,
    persist: { path: persistPath },
    remoteBindings: false,
  }).finally(() => rmSync(configDir, { recursive: true, force: true }));
  return { env: proxy.env as T, dispose: () => proxy.dispose() };
}
