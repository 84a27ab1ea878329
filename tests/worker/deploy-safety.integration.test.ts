// Production is the default (SECURITY.md, docs/decisions/018-production-by-default.md): deploying
// the committed wrangler.toml must never expose the dev outbox or sign tokens with the built-in
// fallback secret, and the Worker refuses to serve without JWT_SECRET outside local mode.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import wranglerToml from "../../wrangler.toml?raw";
import devVarsExample from "../../.dev.vars.example?raw";
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
  it.each(["/api/home", "/api/auth/session", "/", "/dev/mail", "/images/x.jpg"])("refuses %s with a logged 500", async (path) => {
    const logged = allowConsoleError("JWT_SECRET");
    const res = await app.fetch(new Request(`http://localhost${path}`), deployedEnv());
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: { code: "INTERNAL", message: "Tjenesten er ikke ferdig satt opp. Prøv igjen senere." } });
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(logged.calls().length).toBeGreaterThan(0);
  });

  it("refuses a secret shorter than 32 characters too", async () => {
    allowConsoleError("JWT_SECRET");
    const res = await app.fetch(new Request("http://localhost/api/home"), deployedEnv({ JWT_SECRET: "kort" }));
    expect(res.status).toBe(500);
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
    expect(res.status).toBe(500);
    expect(res.headers.getSetCookie()).toEqual([]);
  });
});

describe("deployed with JWT_SECRET", () => {
  it("serves the app", async () => {
    const res = await app.fetch(new Request("http://localhost/api/home"), deployedEnv({ JWT_SECRET: SECRET }));
    expect(res.status).toBe(200);
  });

  it.each(["/dev/mail", "/dev/mail.json", "/api/dev/mail.json"])("has no dev outbox at %s", async (path) => {
    const res = await app.fetch(new Request(`http://localhost${path}`), deployedEnv({ JWT_SECRET: SECRET }));
    expect(res.status).toBe(404);
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
