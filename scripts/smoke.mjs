#!/usr/bin/env node
// The smoke test after a deploy (docs/deploy.md): a handful of public pages and API answers of a
// running Lekebytte, read as a visitor reads them. Exits 1 when any check fails, naming it.
//
//   node scripts/smoke.mjs https://staging.lekebytte.no   # or: --env staging (APP_ORIGIN of wrangler.toml)
//   node scripts/smoke.mjs http://localhost:8787           # a local server: the deployed-only checks are left out
//
// It first waits (up to SMOKE_WAIT_SECONDS, default 60) for the home page to answer 200, since a
// fresh deploy takes a few seconds to reach every data centre; then each check runs once.
import { pathToFileURL } from "node:url";

/** localhost, 127.0.0.0/8 and [::1], as the Worker reads them (worker/env.ts isLoopbackOrigin). */
function isLoopback(url) {
  return url.hostname === "localhost" || url.hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(url.hostname);
}

async function expectStatus(res, status) {
  if (res.status !== status) throw new Error(`status ${res.status}, expected ${status}`);
}

function expectType(res, pattern) {
  const type = res.headers.get("Content-Type") ?? "";
  if (!pattern.test(type)) throw new Error(`Content-Type "${type}"`);
}

/** A check that `path` answers 200 with a JSON body. */
const answersJson = (path) => async (get) => {
  const res = await get(path);
  await expectStatus(res, 200);
  expectType(res, /^application\/json/);
  await res.json();
};

/**
 * The checks: [name, run(get)] where get(path) fetches from the base URL without following
 * redirects. `mode` is "local" for a loopback target, else the deployed environment's name when
 * known ("staging", "production") or "deployed".
 */
export function smokeChecks(mode) {
  const checks = [
    [
      "the home page is the app's HTML",
      async (get) => {
        const res = await get("/");
        await expectStatus(res, 200);
        expectType(res, /^text\/html/);
        const html = await res.text();
        if (!/<title>[^<]*Lekebytte/.test(html)) throw new Error("no <title> naming Lekebytte");
        const asset = /\/assets\/[\w.-]+\.js/.exec(html)?.[0];
        if (!asset) throw new Error("no built script under /assets/");
        const script = await get(asset);
        await expectStatus(script, 200);
        expectType(script, /javascript/);
      },
    ],
    [
      "GET /api/config names the site",
      async (get) => {
        const res = await get("/api/config");
        await expectStatus(res, 200);
        const body = await res.json();
        if (body.appName !== "Lekebytte") throw new Error(`appName ${JSON.stringify(body.appName)}`);
      },
    ],
    ["GET /api/home reads D1", answersJson("/api/home")],
    ["GET /api/search answers a query", answersJson("/api/search?q=lego")],
    [
      "an unknown listing is a real 404 page",
      async (get) => {
        const res = await get(`/annonse/finnes-ikke-${Date.now()}`);
        await expectStatus(res, 404);
        expectType(res, /^text\/html/);
      },
    ],
    [
      "an unknown API path is the JSON error envelope",
      async (get) => {
        const res = await get("/api/finnes-ikke");
        await expectStatus(res, 404);
        const body = await res.json();
        if (body?.error?.code !== "NOT_FOUND") throw new Error(`body ${JSON.stringify(body)}`);
      },
    ],
    [
      "robots.txt answers",
      async (get) => {
        const res = await get("/robots.txt");
        await expectStatus(res, 200);
        const text = await res.text();
        if (!text.startsWith("User-agent: *")) throw new Error("no User-agent line");
        const closed = /^Disallow: \/$/m.test(text);
        if (mode === "staging" && !closed) throw new Error("staging must disallow everything");
        if (mode === "production" && closed) throw new Error("production disallows everything");
      },
    ],
  ];
  if (mode === "local") return checks;
  return [
    ...checks,
    [
      "it runs outside local mode: no dev outbox, HSTS on every answer",
      async (get) => {
        const mail = await get("/dev/mail");
        await expectStatus(mail, 404);
        const res = await get("/api/config");
        if (!res.headers.get("Strict-Transport-Security")) throw new Error("no Strict-Transport-Security");
      },
    ],
  ];
}

/** Runs every check against `base`; returns one row per check ({ name, error }), error null when it passed. */
export async function runSmoke(base, { mode, fetch: fetchImpl = fetch } = {}) {
  const root = new URL(base);
  const get = (path) => fetchImpl(new URL(path, root), { redirect: "manual", headers: { "User-Agent": "lekebytte-smoke" } });
  const results = [];
  for (const [name, run] of smokeChecks(mode ?? (isLoopback(root) ? "local" : "deployed"))) {
    try {
      await run(get);
      results.push({ name, error: null });
    } catch (error) {
      results.push({ name, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return results;
}

/** Polls the home page until it answers 200 or `seconds` pass. */
async function waitForHome(base, seconds) {
  const until = Date.now() + seconds * 1000;
  for (;;) {
    try {
      const res = await fetch(new URL("/", base), { redirect: "manual" });
      await res.arrayBuffer();
      if (res.status === 200 || Date.now() >= until) return;
    } catch {
      // Not reachable yet (DNS, TLS or the route still on its way): try again until the time is up.
      if (Date.now() >= until) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

/** The base URL and mode from the command line: a URL, or `--env NAME` for that environment's APP_ORIGIN. */
async function target(args) {
  const envAt = args.indexOf("--env");
  if (envAt >= 0) {
    const name = args[envAt + 1];
    const { unstable_readConfig } = await import("wrangler");
    const config = unstable_readConfig(
      { config: new URL("../wrangler.toml", import.meta.url).pathname, env: name },
      { hideWarnings: true },
    );
    const origin = config.vars?.APP_ORIGIN;
    if (!name || config.vars?.APP_ENV !== name || !origin) throw new Error(`wrangler.toml has no environment "${name}" with APP_ORIGIN`);
    return { base: origin, mode: name };
  }
  if (!args[0]) throw new Error("usage: node scripts/smoke.mjs <url> | --env <staging|production>");
  const base = new URL(args[0]);
  return { base: base.href, mode: isLoopback(base) ? "local" : "deployed" };
}

async function main() {
  const { base, mode } = await target(process.argv.slice(2));
  await waitForHome(base, Number(process.env.SMOKE_WAIT_SECONDS ?? 60));
  const results = await runSmoke(base, { mode });
  for (const { name, error } of results) console.log(error ? `✗ ${name}: ${error}` : `✓ ${name}`);
  const failed = results.filter((r) => r.error).length;
  console.log(
    failed
      ? `Smoke test of ${base} failed: ${failed} of ${results.length} checks.`
      : `Smoke test of ${base} passed: ${results.length} checks.`,
  );
  process.exitCode = failed ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
