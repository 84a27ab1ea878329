// Local mode is a function of the origin (docs/decisions/135-local-mode-from-the-origin.md): only
// APP_ENV "local" with a loopback APP_ORIGIN turns on the dev routes, the dev outbox, the development
// JWT secret and plain-http provider URLs. "local" on a real host refuses every request with a 503
// and a log line, and every reader of the mode goes through worker/env.ts's appMode.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../worker/app";
import { countD1InLocalMode } from "../../worker/db/usage";
import { appMode, isLocal, queueBaseName, type Bindings, type MailBinding } from "../../worker/env";
import { sendMail } from "../../worker/features/mail/mail";
import { configuredBaseUrl } from "../../worker/lib/base-url";
import { signAccessToken } from "../../worker/lib/jwt";
import { measuresWorkerTime, WORKER_TIME_REQUEST_HEADER } from "../../worker/lib/worker-time";
import { allowConsoleError } from "./support/console-guard";

const REAL_HOST = "https://lekebytte.example";
const REFUSED = { error: { code: "SERVICE_UNAVAILABLE", message: "Tjenesten er ikke ferdig satt opp. Prøv igjen senere." } };

/** The test Worker's bindings (local mode) with the mode's two variables replaced, and no JWT secret. */
function withMode(APP_ENV: string | undefined, APP_ORIGIN: string | undefined, more: Partial<Bindings> = {}): Bindings {
  const { JWT_SECRET: _none, ...rest } = env as Bindings;
  return { ...rest, APP_ENV, APP_ORIGIN, ...more } as Bindings;
}

describe("appMode", () => {
  it.each([
    ["http://localhost:8787", "local"],
    ["http://localhost", "local"],
    ["https://localhost:8443", "local"],
    ["http://127.0.0.1:8799", "local"],
    ["http://127.1", "local"],
    ["http://127.255.3.4:9000", "local"],
    ["http://[::1]:8787", "local"],
    ["http://[0:0:0:0:0:0:0:1]", "local"],
    [REAL_HOST, null],
    ["http://lekebytte.example", null],
    ["http://192.168.1.20:8787", null],
    ["http://10.0.0.2", null],
    ["http://0.0.0.0:8787", null],
    ["http://127.0.0.1.lekebytte.example", null],
    ["http://localhost.lekebytte.example", null],
    ["http://app.localhost", null],
    ["ftp://localhost", null],
    ["", null],
    ["ikke en adresse", null],
    [undefined, null],
  ])('APP_ENV "local" with APP_ORIGIN %j is %s', (origin, mode) => {
    expect(appMode({ APP_ENV: "local", APP_ORIGIN: origin })).toBe(mode);
    expect(isLocal({ APP_ENV: "local", APP_ORIGIN: origin })).toBe(mode === "local");
  });

  it("takes staging and production as they are, whatever the origin, and nothing else", () => {
    expect(appMode({ APP_ENV: "staging", APP_ORIGIN: REAL_HOST })).toBe("staging");
    expect(appMode({ APP_ENV: "production", APP_ORIGIN: "http://localhost:8787" })).toBe("production");
    expect(isLocal({ APP_ENV: "production", APP_ORIGIN: "http://localhost:8787" })).toBe(false);
    for (const other of ["prod", "Production", "LOCAL", "", undefined])
      expect(appMode({ APP_ENV: other, APP_ORIGIN: REAL_HOST })).toBeNull();
  });
});

describe('APP_ENV "local" on a real host', () => {
  it.each(["/api/home", "/", "/dev/mail", "/api/dev/mail.json", "/api/dev/d1-usage", "/api/openapi.json", "/test-notifications"])(
    "refuses %s with a 503, a Norwegian message and a log line that names both variables",
    async (path) => {
      const logged = allowConsoleError("APP_ENV");
      const res = await app.fetch(new Request(`${REAL_HOST}${path}`), withMode("local", REAL_HOST));
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual(REFUSED);
      expect(res.headers.get("Strict-Transport-Security")).toMatch(/max-age=/);
      const line = String(logged.calls()[0]?.[0]);
      expect(line).toContain('APP_ENV is "local"');
      expect(line).toContain(REAL_HOST);
    },
  );

  it("refuses even with a proper JWT secret", async () => {
    allowConsoleError("APP_ENV");
    const res = await app.fetch(new Request(`${REAL_HOST}/api/home`), withMode("local", REAL_HOST, { JWT_SECRET: "x".repeat(40) }));
    expect(res.status).toBe(503);
  });

  it("signs nothing with the development secret", async () => {
    await expect(signAccessToken(withMode("local", REAL_HOST), "u1", "f1")).rejects.toThrow(/JWT_SECRET/);
    await expect(signAccessToken(withMode("local", "http://localhost:8787"), "u1", "f1")).resolves.toHaveProperty("token");
  });

  it("sends mail through the EMAIL binding, never into the dev outbox", async () => {
    const sent: string[] = [];
    const EMAIL: MailBinding = { send: async (m) => void sent.push(m.to) };
    const to = `${crypto.randomUUID()}@lekebytte.test`;
    await sendMail(withMode("local", REAL_HOST, { EMAIL } as Partial<Bindings>), { to, subject: "Hei", text: "Hei" });
    expect(sent).toEqual([to]);
    const stored = await env.DB.prepare("SELECT COUNT(*) AS n FROM dev_outbox WHERE to_address = ?1").bind(to).first<{ n: number }>();
    expect(stored?.n).toBe(0);

    await sendMail(withMode("local", "http://127.0.0.1:8799", { EMAIL } as Partial<Bindings>), { to, subject: "Hei", text: "Hei" });
    expect(sent).toEqual([to]);
    const local = await env.DB.prepare("SELECT COUNT(*) AS n FROM dev_outbox WHERE to_address = ?1").bind(to).first<{ n: number }>();
    expect(local?.n).toBe(1);
  });

  it("takes no plain-http provider URL", () => {
    expect(() => configuredBaseUrl(withMode("local", REAL_HOST), "STRIPE_API_BASE", "http://127.0.0.1:9999")).toThrow(/https/);
    expect(configuredBaseUrl(withMode("local", "http://localhost:8787"), "STRIPE_API_BASE", "http://127.0.0.1:9999").port).toBe("9999");
  });

  it("neither counts D1 nor times the Worker", () => {
    const deployed = withMode("local", REAL_HOST);
    expect(countD1InLocalMode(deployed)).toBe(deployed);
    const asked = new Request(`${REAL_HOST}/api/home`, { headers: { [WORKER_TIME_REQUEST_HEADER]: "1" } });
    expect(measuresWorkerTime(asked, deployed)).toBe(false);
    expect(measuresWorkerTime(asked, withMode("local", "http://localhost:8787"))).toBe(true);
  });
});

describe("an APP_ENV that names no mode", () => {
  it.each(["prod", "development", ""])("%j refuses every request with a 503 that names APP_ENV", async (value) => {
    const logged = allowConsoleError("APP_ENV");
    const res = await app.fetch(new Request(`${REAL_HOST}/api/home`), withMode(value, REAL_HOST, { JWT_SECRET: "x".repeat(40) }));
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual(REFUSED);
    expect(String(logged.calls()[0]?.[0])).toContain(`APP_ENV is "${value}"`);
  });
});

describe("staging", () => {
  const staging = () => withMode("staging", "https://staging.lekebytte.example", { JWT_SECRET: "x".repeat(40) });

  it("serves like production, with no dev routes", async () => {
    expect((await app.fetch(new Request("https://staging.lekebytte.example/api/home"), staging())).status).toBe(200);
    expect((await app.fetch(new Request("https://staging.lekebytte.example/dev/mail"), staging())).status).toBe(404);
  });

  it("keeps search engines out: robots.txt disallows everything and every answer says noindex", async () => {
    const robots = await app.fetch(new Request("https://staging.lekebytte.example/robots.txt"), staging());
    expect(await robots.text()).toBe("User-agent: *\nDisallow: /\n");
    for (const path of ["/", "/api/home", "/finnes-ikke"]) {
      const res = await app.fetch(new Request(`https://staging.lekebytte.example${path}`), staging());
      expect(res.headers.get("X-Robots-Tag"), path).toBe("noindex");
    }
  });

  it("production's robots.txt lists the open pages, and its pages carry no blanket noindex", async () => {
    const production = withMode("production", REAL_HOST, { JWT_SECRET: "x".repeat(40) });
    const robots = await (await app.fetch(new Request(`${REAL_HOST}/robots.txt`), production)).text();
    expect(robots).toContain("Allow: /annonse/");
    expect(robots).not.toMatch(/^Disallow: \/$/m);
    expect((await app.fetch(new Request(`${REAL_HOST}/api/home`), production)).headers.get("X-Robots-Tag")).toBeNull();
  });

  it("reads its suffixed queue names as the plain ones", () => {
    expect(queueBaseName("analytics-staging", staging())).toBe("analytics");
    expect(queueBaseName("analytics-dlq-staging", staging())).toBe("analytics-dlq");
    expect(queueBaseName("saved-search-matching-staging", staging())).toBe("saved-search-matching");
    expect(queueBaseName("analytics", withMode("production", REAL_HOST))).toBe("analytics");
    expect(queueBaseName("analytics-dlq", env as Bindings)).toBe("analytics-dlq");
  });
});
