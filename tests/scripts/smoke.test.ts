// The smoke test after a deploy (scripts/smoke.mjs) fails, and names what failed, when the site
// answers wrongly. A small Node server stands for a broken deployment; the same script passing
// against the real app is tests/e2e/smoke.spec.ts.
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSmoke } from "../../scripts/smoke.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Right answers, except: no built script on the home page, /api/home fails, unknown listings are soft 404s, no HSTS. */
const BROKEN: Record<string, [number, string, string]> = {
  "/": [200, "text/html; charset=utf-8", "<!doctype html><title>Lekebytte</title><div id=root></div>"],
  "/api/config": [200, "application/json", '{"appName":"Lekebytte"}'],
  "/api/home": [500, "application/json", '{"error":{"code":"INTERNAL","message":"Noe gikk galt."}}'],
  "/api/search": [200, "application/json", '{"items":[]}'],
  "/api/finnes-ikke": [404, "application/json", '{"error":{"code":"NOT_FOUND","message":"Fant ikke siden."}}'],
  "/robots.txt": [200, "text/plain", "User-agent: *\nDisallow: /\n"],
  "/dev/mail": [404, "text/plain", "Not found"],
};

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const pathname = new URL(req.url ?? "/", "http://x").pathname;
    const [status, type, body] = BROKEN[pathname] ?? [200, "text/html", "<title>Lekebytte</title>"];
    res.writeHead(status, { "Content-Type": type }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function smokeCli(url: string): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["scripts/smoke.mjs", url],
      { cwd: ROOT, env: { ...process.env, SMOKE_WAIT_SECONDS: "0" } },
      (error, stdout) => resolve({ code: error ? Number(error.code) : 0, stdout }),
    );
  });
}

describe("scripts/smoke.mjs", () => {
  it("exits 1 against a broken site and names each failed check", async () => {
    const { code, stdout } = await smokeCli(base);
    expect(code).toBe(1);
    expect(stdout).toContain("✗ the home page is the app's HTML: no built script under /assets/");
    expect(stdout).toContain("✗ GET /api/home reads D1: status 500, expected 200");
    expect(stdout).toContain("✗ an unknown listing is a real 404 page: status 200, expected 404");
    expect(stdout).toContain("✓ GET /api/config names the site");
    expect(stdout).toContain("✓ an unknown API path is the JSON error envelope");
    expect(stdout).toMatch(/failed: 3 of 7 checks/);
  });

  it("checks a deployed environment for more: HSTS, no dev outbox, robots.txt by environment", async () => {
    const failed = async (mode: string) => (await runSmoke(base, { mode })).filter((r) => r.error).map((r) => r.name);
    expect(await failed("staging")).toEqual([
      "the home page is the app's HTML",
      "GET /api/home reads D1",
      "an unknown listing is a real 404 page",
      "it runs outside local mode: no dev outbox, HSTS on every answer",
    ]);
    expect(await failed("production")).toContain("robots.txt answers");
  });
});
