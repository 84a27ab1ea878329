// Shared by scripts/start.mjs, scripts/reset.mjs and scripts/seed.ts: where the local state lives and
// the environment every tool runs with (offline, no telemetry, no prompts).
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const BIN = path.join(ROOT, "node_modules", ".bin");
export const WRANGLER_CONFIG = path.join(ROOT, "wrangler.toml");
/**
 * The Worker as `vite build` bundled it, with the configuration the Vite plugin wrote beside it: what
 * `npm run deploy` uploads, and what `npm start` serves (docs/decisions/146-serve-the-built-worker.md).
 */
export const BUILT_WORKER_CONFIG = path.join(ROOT, "dist", "lekebytte", "wrangler.json");

/** `--persist-to` directory of wrangler (D1, R2, DO state live under `<dir>/v3`). */
export function stateDir() {
  return path.resolve(ROOT, process.env.STATE_DIR || ".wrangler/state");
}

/** What `getPlatformProxy({ persist: { path } })` needs for the same data as `--persist-to <dir>`. */
export function persistPath() {
  return path.join(stateDir(), "v3");
}

/** Written after demo data was loaded (or found, or restored), so later starts skip the seed step quickly. */
export function seedMarker(dir = stateDir()) {
  return path.join(dir, "lekebytte-seed.json");
}

/** A path for messages: relative to the project when inside it, absolute otherwise. */
export function shownPath(p) {
  const rel = path.relative(ROOT, p);
  return !rel ? "." : rel.startsWith("..") || path.isAbsolute(rel) ? p : rel;
}

export function port() {
  const p = Number(process.env.PORT || 8787);
  if (!Number.isInteger(p) || p <= 0 || p > 65535) throw new Error(`PORT må være et portnummer, fikk «${process.env.PORT}»`);
  return p;
}

/** Settings that keep wrangler and miniflare offline and non-interactive. */
export const OFFLINE_ENV = {
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  // The banner runs an npm update check; without it wrangler makes no network call in local mode.
  WRANGLER_HIDE_BANNER: "true",
  // miniflare would otherwise try to download request.cf data from workers.cloudflare.com.
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  DO_NOT_TRACK: "1",
  NO_UPDATE_NOTIFIER: "1",
};

/** Environment for child tools: our node_modules/.bin first (the project's own Node), offline settings. */
export function toolEnv(extra = {}) {
  const pathParts = [BIN];
  if (process.env.PATH) pathParts.push(process.env.PATH);
  return { ...process.env, ...OFFLINE_ENV, PATH: pathParts.join(path.delimiter), ...extra };
}

export function binPath(name) {
  const p = path.join(BIN, name);
  if (!existsSync(p)) throw new Error(`${name} mangler i node_modules/.bin – kjør «npm install» først.`);
  return p;
}
