// wrangler.toml's staging and production environments (docs/deploy.md, decision 136), read the way
// `wrangler deploy --env …` reads them. Wrangler does not give an environment the top level's vars,
// D1, R2, Images, queues, Durable Object bindings, send_email, ratelimits or version metadata: each
// must repeat them, with resources of its own, or the deployed Worker lacks a binding the local one
// has.
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { appMode, queueBaseName } from "../../worker/env";
import { isPublicOrigin } from "../../worker/middleware/config";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DEPLOYED = ["staging", "production"] as const;
/** The parts of wrangler's resolved configuration these tests read. */
interface Config {
  name: string;
  main: string;
  compatibility_date: string;
  keep_names?: boolean;
  workers_dev?: boolean;
  define: Record<string, string>;
  vars: Record<string, string>;
  assets?: { not_found_handling?: string; run_worker_first?: string[] | boolean };
  triggers: unknown;
  migrations: unknown[];
  routes?: unknown[];
  images?: unknown;
  version_metadata?: { binding: string };
  send_email: { name: string }[];
  durable_objects: { bindings: unknown[] };
  d1_databases: { binding: string; database_name: string; database_id: string; migrations_dir?: string }[];
  r2_buckets: { binding: string; bucket_name: string }[];
  queues: { producers?: { binding: string; queue: string }[]; consumers?: { queue: string; dead_letter_queue?: string }[] };
  ratelimits: { name: string; namespace_id: string; simple: unknown }[];
}

/**
 * Each environment's configuration as wrangler resolves it, and what wrangler warned while reading
 * it: read in a Node process of its own, since wrangler's bundler refuses to load under jsdom.
 */
const READ = `
import { unstable_readConfig } from "wrangler";
const out = {};
for (const env of ["", ${DEPLOYED.map((e) => JSON.stringify(e)).join(", ")}]) {
  const warnings = [];
  const warn = console.warn;
  console.warn = (...args) => warnings.push(args.join(" "));
  try {
    out[env] = { config: unstable_readConfig({ config: "wrangler.toml", env: env || undefined }, {}), warnings };
  } finally {
    console.warn = warn;
  }
}
process.stdout.write(JSON.stringify(out));
`;
const readAll = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", READ], { cwd: ROOT, encoding: "utf8" })) as Record<
  string,
  { config: Config; warnings: string[] }
>;
const read = (env?: string) => readAll[env ?? ""];

const local = read().config;
const deployed = Object.fromEntries(DEPLOYED.map((name) => [name, read(name).config])) as Record<(typeof DEPLOYED)[number], Config>;
const vars = (c: Config) => c.vars;
const byName = <T>(items: T[], key: (item: T) => string) => [...items].sort((a, b) => key(a).localeCompare(key(b)));

/** Everything about a Worker's bindings except the names of the resources they point at. */
function shape(c: Config) {
  const baseQueue = (queue: string) => queueBaseName(queue, vars(c));
  return {
    main: c.main,
    compatibility_date: c.compatibility_date,
    keep_names: c.keep_names,
    define: c.define,
    assets: c.assets,
    triggers: c.triggers,
    migrations: c.migrations,
    durableObjects: c.durable_objects.bindings,
    d1: c.d1_databases.map((d) => ({ binding: d.binding, migrations_dir: d.migrations_dir })),
    r2: c.r2_buckets.map((b) => b.binding).sort(),
    images: c.images,
    versionMetadata: c.version_metadata,
    producers: byName(c.queues.producers?.map((p) => ({ binding: p.binding, queue: baseQueue(p.queue) })) ?? [], (p) => p.binding),
    consumers: byName(
      c.queues.consumers?.map((q) => ({
        ...q,
        queue: baseQueue(q.queue),
        dead_letter_queue: q.dead_letter_queue && baseQueue(q.dead_letter_queue),
      })) ?? [],
      (q) => q.queue,
    ),
    ratelimits: byName(
      c.ratelimits.map((r) => ({ name: r.name, simple: r.simple })),
      (r) => r.name,
    ),
    vars: Object.keys(vars(c)).sort(),
  };
}

/** The account-wide names an environment's resources take. */
function resources(c: Config): string[] {
  return [
    ...c.d1_databases.flatMap((d) => [`d1:${d.database_name}`, `d1-id:${d.database_id}`]),
    ...c.r2_buckets.map((b) => `r2:${b.bucket_name}`),
    ...(c.queues.producers ?? []).map((p) => `queue:${p.queue}`),
    ...(c.queues.consumers ?? []).map((q) => `queue:${q.queue}`),
    ...c.ratelimits.map((r) => `ratelimit:${r.namespace_id}`),
  ];
}

describe("wrangler.toml's environments", () => {
  it("are read without a warning, the top level too", () => {
    for (const env of [undefined, ...DEPLOYED]) expect(read(env).warnings, env ?? "top level").toEqual([]);
  });

  it.each(DEPLOYED)("%s has every binding the local Worker has, on the same terms", (name) => {
    expect(shape(deployed[name])).toEqual(shape(local));
  });

  it.each(DEPLOYED)("%s is its own Worker with the mail binding", (name) => {
    const c = deployed[name];
    expect(c.name).toBe(`lekebytte-${name}`);
    expect(c.send_email).toEqual([{ name: "EMAIL" }]);
    expect(c.workers_dev).toBe(false);
  });

  it.each(DEPLOYED)("%s names its own mode and serves its public https origin", (name) => {
    const c = deployed[name];
    expect(vars(c).APP_ENV).toBe(name);
    expect(appMode(vars(c))).toBe(name);
    expect(isPublicOrigin(vars(c).APP_ORIGIN)).toBe(true);
    expect(c.routes).toEqual([{ pattern: new URL(vars(c).APP_ORIGIN).host, custom_domain: true }]);
  });

  it("production and staging share no database, bucket, queue or rate-limit namespace", () => {
    const production = new Set(resources(deployed.production));
    expect(resources(deployed.staging).filter((r) => production.has(r))).toEqual([]);
  });

  it("staging pays and ships in the providers' test environments; otherwise both say what the local Worker says", () => {
    const same = (c: Config, except: string[]) => Object.fromEntries(Object.entries(vars(c)).filter(([k]) => !except.includes(k)));
    const own = ["APP_ENV", "APP_ORIGIN"];
    expect(same(deployed.production, own)).toEqual(same(local, own));
    const test = [...own, "VIPPS_API_BASE", "HELTHJEM_API_BASE"];
    expect(same(deployed.staging, test)).toEqual(same(local, test));
    expect(vars(deployed.staging).VIPPS_API_BASE).toBe("https://apitest.vipps.no");
    expect(vars(deployed.production).VIPPS_API_BASE).toBe("https://api.vipps.no");
    expect(vars(deployed.staging).HELTHJEM_API_BASE).toBe("https://api.pre.helthjem.no");
    expect(vars(deployed.production).HELTHJEM_API_BASE).toBe("https://api.helthjem.no");
  });

  // The asset server answers what it has a file for; anything else goes to the Worker. A static
  // route to the asset server (a "!…" pattern) or an SPA fallback would answer a missing build asset
  // with public/_headers' year-long immutable header (decision 164).
  it("sends every path without a file to the Worker, and the build's files outside /assets/ too", () => {
    expect(local.assets?.not_found_handling).toBe("none");
    // The shell (index.html, named "/", "/index" and "/index.html" by the asset server), public/'s
    // files, and the route table the build writes (vite.config.ts, "route-chunks.json").
    const files = readdirSync(path.join(ROOT, "public")).filter((name) => name !== "_headers");
    const outside = ["/", "/index", "/index.html", ...files.map((name) => `/${name}`), "/route-chunks.json"];
    const first = local.assets?.run_worker_first;
    expect(Array.isArray(first) ? [...first].sort() : first).toEqual(outside.sort());
  });

  it("the local Worker stays what `npm start` and the tests run: no mail binding, the committed placeholder origin", () => {
    expect(local.name).toBe("lekebytte");
    expect(local.send_email).toEqual([]);
    expect(vars(local).APP_ORIGIN).toBe("http://localhost:8787");
  });
});
