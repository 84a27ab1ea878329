// Production is the default (docs/security.md "Production by default", docs/decisions/018-production-by-default.md): deploying
// the committed wrangler.toml must never expose the dev outbox or sign tokens with the built-in
// fallback secret, and the Worker refuses to serve (503) without JWT_SECRET outside local mode.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import wranglerToml from "../../wrangler.toml?raw";
import devVarsExample from "../../.dev.vars.example?raw";
import readme from "../../README.md?raw";
import { PUBLIC_JWT_SECRETS } from "../../worker/lib/jwt";
import { app } from "../../worker/app";
import type { Bindings } from "../../worker/env";
import { allowConsoleError } from "./support/console-guard";

/** `[vars]` of wrangler.toml (flat `KEY = "value"` lines up to the next table). */
function tomlVars(toml: string): Record<string, string> {
  const section = toml.split(/^\[vars\]\s*$/m)[1]?.split(/^\[/m)[0] ?? "";
  return Object.fromEntries([...section.matchAll(/^([A-Z_]+)\s*=\s*"([^"]*)"/gm)].map((m) => [m[1], m[2]]));
}

const deployed = tomlVars(wranglerToml);
const SECRET = "a-production-secret-that-is-long-enough-0123456789";
/** What the deploy steps (README "Deploy") have the operator set in wrangler.toml [vars]. */
const SITE = "https://lekebytte.example";
const REFUSED = { error: { code: "SERVICE_UNAVAILABLE", message: "Tjenesten er ikke ferdig satt opp. Prøv igjen senere." } };

/** The Worker as `wrangler deploy` would run it: the committed vars, plus the given secrets. */
function deployedEnv(secrets: Partial<Bindings> = {}): Bindings {
  const { JWT_SECRET: _dropped, ...rest } = env as Bindings;
  return { ...rest, ...deployed, ...secrets } as Bindings;
}

describe("the committed configuration", () => {
  it("defaults to production, and local mode is only in .dev.vars.example", () => {
    expect(deployed.APP_ENV).toBe("production");
    expect(wranglerToml).not.toMatch(/APP_ENV\s*=\s*"local"/);
    expect(devVarsExample).toMatch(/^APP_ENV="local"$/m);
  });

  it("keeps the photo bucket and the private bucket apart", () => {
    expect(wranglerToml).toMatch(/binding = "PRIVATE"\s*\nbucket_name = "lekebytte-private"/);
    expect(wranglerToml).toMatch(/binding = "IMAGES"\s*\nbucket_name = "lekebytte-images"/);
  });
});

describe("deployed without JWT_SECRET", () => {
  it.each(["/api/home", "/api/auth/session", "/", "/dev/mail", "/images/x.jpg"])("refuses %s with a logged 503", async (path) => {
    const logged = allowConsoleError("JWT_SECRET");
    const res = await app.fetch(new Request(`http://localhost${path}`), deployedEnv());
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual(REFUSED);
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(logged.calls().length).toBeGreaterThan(0);
  });

  it("refuses a secret shorter than 32 characters too", async () => {
    allowConsoleError("JWT_SECRET");
    const res = await app.fetch(new Request("http://localhost/api/home"), deployedEnv({ JWT_SECRET: "kort" }));
    expect(res.status).toBe(503);
  });

  it("does not serve sign-in with the fallback secret", async () => {
    allowConsoleError("JWT_SECRET");
    const res = await app.fetch(
      new Request("http://localhost/api/auth/signin", {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: "http://localhost" },
        body: JSON.stringify({ email: "a@test.no", password: "x" }),
      }),
      deployedEnv(),
    );
    expect(res.status).toBe(503);
    expect(res.headers.getSetCookie()).toEqual([]);
  });
});

describe("deployed with the public JWT_SECRET of .dev.vars.example", () => {
  const publicSecret = /^JWT_SECRET="([^"]+)"$/m.exec(devVarsExample)![1];

  it("is one of the values the Worker knows to be public", () => {
    expect(PUBLIC_JWT_SECRETS).toContain(publicSecret);
  });

  it.each(["/api/home", "/", "/api/auth/session"])("refuses %s with a logged 503 that names the problem", async (path) => {
    const logged = allowConsoleError("JWT_SECRET");
    const res = await app.fetch(new Request(`${SITE}${path}`), deployedEnv({ JWT_SECRET: publicSecret, APP_ORIGIN: SITE }));
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual(REFUSED);
    expect(String(logged.calls()[0]?.[0])).toContain(".dev.vars.example");
  });

  it("refuses the built-in local fallback secret too", async () => {
    allowConsoleError("JWT_SECRET");
    const res = await app.fetch(
      new Request(`${SITE}/api/home`),
      deployedEnv({ JWT_SECRET: "local-development-only-secret-not-for-production-use-0123456789", APP_ORIGIN: SITE }),
    );
    expect(res.status).toBe(503);
  });
});

describe("deployed with the committed APP_ORIGIN (http://localhost:8787) or another local or http origin", () => {
  it("the committed value is the local one, so the deploy steps must change it", () => {
    expect(deployed.APP_ORIGIN).toBe("http://localhost:8787");
  });

  it.each([
    deployed.APP_ORIGIN,
    "http://lekebytte.example",
    "https://localhost",
    "https://127.0.0.1:8787",
    "https://[::1]",
    "https://app.localhost",
    "",
    "ikke en adresse",
  ])("refuses to serve with APP_ORIGIN %j (logged 503)", async (origin) => {
    const logged = allowConsoleError("APP_ORIGIN");
    const res = await app.fetch(new Request(`${SITE}/api/home`), deployedEnv({ JWT_SECRET: SECRET, APP_ORIGIN: origin }));
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual(REFUSED);
    expect(String(logged.calls()[0]?.[0])).toContain("APP_ORIGIN");
  });

  it("local mode keeps http://localhost", async () => {
    const local = { ...deployedEnv(), APP_ENV: "local" } as Bindings;
    expect((await app.fetch(new Request("http://localhost/api/home"), local)).status).toBe(200);
  });
});

describe("deployed with JWT_SECRET and the site's https APP_ORIGIN", () => {
  it("serves the app", async () => {
    const res = await app.fetch(new Request(`${SITE}/api/home`), deployedEnv({ JWT_SECRET: SECRET, APP_ORIGIN: SITE }));
    expect(res.status).toBe(200);
  });

  it("the README's deploy steps say to set APP_ORIGIN to the https origin", () => {
    expect(readme).toMatch(/APP_ORIGIN[^\n]*https:\/\//);
    expect(readme).toMatch(/refuses to serve[\s\S]{0,300}`APP_ORIGIN` is not an https origin/i);
  });

  it.each(["/dev/mail", "/dev/mail.json", "/api/dev/mail.json"])("has no dev outbox at %s", async (path) => {
    const res = await app.fetch(new Request(`${SITE}${path}`), deployedEnv({ JWT_SECRET: SECRET, APP_ORIGIN: SITE }));
    expect(res.status).toBe(404);
  });

  // The other local-only routers (middleware/local-only.ts): the benchmarks' endpoints and the
  // notification test are not there either, whatever the request.
  it.each([
    ["GET", "/api/dev/analytics/summary"],
    ["POST", "/api/dev/saved-searches/match"],
    ["GET", "/api/dev/d1-usage"],
    ["POST", "/api/dev/cron/orders"],
    ["GET", "/api/test-notifications"],
    ["POST", "/api/test-notifications"],
  ])("has no %s %s", async (method, path) => {
    const init: RequestInit =
      method === "POST"
        ? { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify({ listingIds: [], content: "Hei" }) }
        : {};
    const res = await app.fetch(new Request(`${SITE}${path}`, init), deployedEnv({ JWT_SECRET: SECRET, APP_ORIGIN: SITE }));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: "NOT_FOUND", message: expect.any(String) } });
  });
});

describe("local mode (npm start, npm run dev, these tests)", () => {
  it("runs without a JWT secret and shows the outbox", async () => {
    const local = { ...deployedEnv(), APP_ENV: "local" } as Bindings;
    expect((await app.fetch(new Request("http://localhost/api/home"), local)).status).toBe(200);
    expect((await app.fetch(new Request("http://localhost/dev/mail"), local)).status).toBe(200);
  });

  it("is what the test Worker runs in", () => {
    expect(env.APP_ENV).toBe("local");
  });
});
