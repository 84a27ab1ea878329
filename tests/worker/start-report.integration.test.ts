// A deployment that lacks the mail binding or a provider key says so when an isolate starts (its
// first request or cron run), one log line per missing setting with what stops working, instead of at
// the first sign-up whose confirmation mail never leaves (worker/start-report.ts, decision 135).
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../worker";
import type { Bindings, MailBinding } from "../../worker/env";
import { settingProblems } from "../../worker/start-report";
import { allowConsoleError } from "./support/console-guard";

const SITE = "https://staging.lekebytte.example";
const PAYMENT_KEYS = [
  "STRIPE_SECRET_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "STRIPE_CONNECT_WEBHOOK_SECRET",
  "STRIPE_API_BASE",
  "VIPPS_CLIENT_ID",
  "VIPPS_CLIENT_SECRET",
  "VIPPS_SUBSCRIPTION_KEY",
  "VIPPS_MERCHANT_SERIAL_NUMBER",
  "VIPPS_WEBHOOK_SECRET",
  "BRING_API_BASE",
  "BRING_API_UID",
  "BRING_API_KEY",
  "BRING_CUSTOMER_NUMBER",
  "BRING_WEBHOOK_SECRET",
  "HELTHJEM_CLIENT_ID",
  "HELTHJEM_CLIENT_SECRET",
  "HELTHJEM_SHOP_ID",
  "HELTHJEM_WEBHOOK_SECRET",
] as const;
const MAIL: MailBinding = { send: async () => undefined };
const BRING_KEYS: Partial<Bindings> = { BRING_API_UID: "uid", BRING_API_KEY: "key", BRING_CUSTOMER_NUMBER: "123" };
const HELTHJEM_KEYS: Partial<Bindings> = { HELTHJEM_CLIENT_ID: "id", HELTHJEM_CLIENT_SECRET: "secret", HELTHJEM_SHOP_ID: "4242" };
const CONFIGURED: Partial<Bindings> = {
  EMAIL: MAIL,
  STRIPE_SECRET_KEY: "sk_test_x",
  STRIPE_WEBHOOK_SECRET: "whsec_x",
  VIPPS_CLIENT_ID: "id",
  VIPPS_CLIENT_SECRET: "secret",
  VIPPS_SUBSCRIPTION_KEY: "key",
  VIPPS_MERCHANT_SERIAL_NUMBER: "123456",
  VIPPS_WEBHOOK_SECRET: "webhook",
  CACHE_PURGE_ZONE_ID: "zone",
  CACHE_PURGE_TOKEN: "token",
} as Partial<Bindings>;

/** A fresh staging deployment (a new isolate's `env`): the test Worker's resources, no payment keys, no mail binding. */
function staging(more: Partial<Bindings> = {}): Bindings {
  const bindings: Record<string, unknown> = { ...(env as Bindings) };
  for (const key of PAYMENT_KEYS) delete bindings[key];
  return {
    ...bindings,
    APP_ENV: "staging",
    APP_ORIGIN: SITE,
    JWT_SECRET: "a-staging-secret-that-is-long-enough-0123456789",
    VIPPS_API_BASE: "https://apitest.vipps.no",
    HELTHJEM_API_BASE: "https://api.pre.helthjem.no",
    ...more,
  } as Bindings;
}

/** The lines the report logged (JSON with `setting`), in order. */
function reported(calls: unknown[][]): { setting: string; problem: string; effect: string }[] {
  return calls.map((args) => String(args[0])).flatMap((line) => (line.startsWith('{"setting"') ? [JSON.parse(line)] : []));
}

async function request(bindings: Bindings, path = "/api/home"): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(`${SITE}${path}`) as Request<unknown, IncomingRequestCfProperties>, bindings, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

const EVERYTHING_MISSING = [
  "EMAIL",
  "STRIPE_SECRET_KEY",
  "VIPPS_CLIENT_ID",
  "VIPPS_CLIENT_SECRET",
  "VIPPS_SUBSCRIPTION_KEY",
  "VIPPS_MERCHANT_SERIAL_NUMBER",
  "CACHE_PURGE_ZONE_ID",
  "CACHE_PURGE_TOKEN",
];

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the first request of an isolate", () => {
  it("logs one line per missing setting, with what stops working, and serves anyway", async () => {
    const logged = allowConsoleError('"setting"');
    const res = await request(staging());
    expect(res.status).toBe(200);
    const lines = reported(logged.calls());
    expect(lines.map((l) => l.setting)).toEqual(EVERYTHING_MISSING);
    for (const line of lines) {
      expect(line.problem).toBe("missing");
      expect(line.effect.length).toBeGreaterThan(20);
    }
    expect(lines[0].effect).toContain("sign-up confirmations");
    expect(lines.find((l) => l.setting === "STRIPE_SECRET_KEY")?.effect).toContain("card payments");
    expect(lines.find((l) => l.setting === "VIPPS_CLIENT_ID")?.effect).toContain("Logg inn med Vipps");
  });

  it("is the only one that reports: later requests of the same isolate log nothing more", async () => {
    const logged = allowConsoleError('"setting"');
    const bindings = staging();
    await request(bindings);
    const first = reported(logged.calls()).length;
    await request(bindings, "/");
    await request(bindings, "/api/config");
    expect(first).toBe(EVERYTHING_MISSING.length);
    expect(reported(logged.calls())).toHaveLength(first);
  });

  it("logs nothing when everything is configured", async () => {
    const res = await request(staging(CONFIGURED));
    expect(res.status).toBe(200);
  });
});

describe("the first cron run of an isolate", () => {
  it("with Bring's base URL unusable, still runs the parcels' database moves and names the setting", async () => {
    const logged = allowConsoleError('"setting"');
    const bindings = staging({ ...CONFIGURED, ...BRING_KEYS, BRING_API_BASE: "http://127.0.0.1:9999" });
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "0 * * * *" }), bindings, ctx);
    await waitOnExecutionContext(ctx);
    expect(reported(logged.calls()).map((l) => l.setting)).toEqual(["BRING_API_BASE"]);
    // No `{"cron":"shipments","ok":false,…}` line: the console guard fails the test on any other error.
  });

  it("reports the same, before any request came", async () => {
    const logged = allowConsoleError('"setting"');
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "0 * * * *" }), staging({ EMAIL: undefined }), ctx);
    await waitOnExecutionContext(ctx);
    expect(reported(logged.calls()).map((l) => l.setting)).toEqual(EVERYTHING_MISSING);
  });
});

describe("what counts as missing", () => {
  it("names the webhook secrets once the keys are there", () => {
    const problems = settingProblems(staging({ ...CONFIGURED, STRIPE_WEBHOOK_SECRET: undefined, VIPPS_WEBHOOK_SECRET: undefined }));
    expect(problems.map((p) => p.name)).toEqual(["STRIPE_WEBHOOK_SECRET", "VIPPS_WEBHOOK_SECRET"]);
    expect(problems[0].effect).toContain("webhooks are refused");
  });

  it("takes Stripe's Connect webhook secret in place of the account one", () => {
    expect(settingProblems(staging({ ...CONFIGURED, STRIPE_WEBHOOK_SECRET: undefined, STRIPE_CONNECT_WEBHOOK_SECRET: "whsec_c" }))).toEqual(
      [],
    );
  });

  it("reports a provider base URL that is set but unusable", () => {
    const problems = settingProblems(
      staging({
        ...CONFIGURED,
        STRIPE_API_BASE: "http://127.0.0.1:9999",
        VIPPS_API_BASE: "http://127.0.0.1:9999",
        ...BRING_KEYS,
        BRING_API_BASE: "http://127.0.0.1:9999",
      }),
    );
    expect(problems.map((p) => [p.name, p.problem])).toEqual([
      ["STRIPE_API_BASE", "invalid"],
      ["VIPPS_API_BASE", "invalid"],
      ["BRING_API_BASE", "invalid"],
    ]);
    expect(problems[0].effect).toContain("https");
  });

  it("reports Helthjem's base URL or shop id when set but unusable, and nothing for Helthjem's keys alone", () => {
    expect(settingProblems(staging({ ...CONFIGURED, ...HELTHJEM_KEYS }))).toEqual([]);
    const base = settingProblems(staging({ ...CONFIGURED, ...HELTHJEM_KEYS, HELTHJEM_API_BASE: "http://127.0.0.1:9999" }));
    expect(base.map((p) => [p.name, p.problem])).toEqual([["HELTHJEM_API_BASE", "invalid"]]);
    expect(base[0].effect).toContain("Helthjem's parcels");
    const shop = settingProblems(staging({ ...CONFIGURED, ...HELTHJEM_KEYS, HELTHJEM_SHOP_ID: "butikk-1" }));
    expect(shop.map((p) => [p.name, p.problem])).toEqual([["HELTHJEM_SHOP_ID", "invalid"]]);
  });

  it("asks local mode for no mail binding and no purge token, and warns about missing payment keys", async () => {
    const local = { ...staging(), APP_ENV: "local", APP_ORIGIN: "http://localhost:8787" } as Bindings;
    expect(settingProblems(local).map((p) => p.name)).toEqual(
      EVERYTHING_MISSING.filter((n) => n !== "EMAIL" && !n.startsWith("CACHE_PURGE")),
    );
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await request(local);
    expect(warn.mock.calls.map((args) => JSON.parse(String(args[0])).setting)).toEqual([
      "STRIPE_SECRET_KEY",
      ...EVERYTHING_MISSING.slice(2, 6),
    ]);
  });

  it("finds nothing missing in the test Worker (local mode with the sandbox's keys)", () => {
    expect(settingProblems(env as Bindings)).toEqual([]);
  });
});
