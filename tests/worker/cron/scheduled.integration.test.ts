// The hourly cron runs each step on its own, money first: a step that throws (R2 refusing the
// sitemap) is logged and recorded, and every other step still runs; a step that fails twice in a
// row mails the admins once, and its next success clears the count.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createUser } from "../../factories";
import { CRON_STEPS, runScheduled } from "../../../worker/cron/scheduled";
import type { Bindings } from "../../../worker/env";
import { allowConsoleError } from "../support/console-guard";
import { moneyFor, paidOrder } from "../support/orders";
import { outboxTo } from "../support/payments";

const HOUR = 3_600_000;
const later = (hours: number) => new Date(Date.now() + hours * HOUR);

/** The bindings with the private bucket refusing every write, as R2 does in an outage. */
function withR2Down(): Bindings {
  const bucket = new Proxy(env.PRIVATE, {
    get(target, key) {
      if (key === "put") return () => Promise.reject(new Error("R2 is unavailable"));
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { ...(env as Bindings), PRIVATE: bucket };
}

/** Every alert about the sitemap step, whatever count it names. */
const ALERT = /^Lekebytte: steget «sitemap» i timejobben har feilet \d+ ganger på rad$/;

async function stepRow(step: string) {
  return env.DB.prepare("SELECT last_ok, failures_in_a_row, alerted_at, last_error FROM cron_steps WHERE step = ?1")
    .bind(step)
    .first<{ last_ok: number; failures_in_a_row: number; alerted_at: string | null; last_error: string | null }>();
}

describe("the hourly cron", () => {
  it("runs the money steps first", () => {
    expect(CRON_STEPS.slice(0, 3).map((s) => s.name)).toEqual(["payments", "orders", "shipments"]);
  });

  it("releases due held money while R2 refuses the sitemap, and records each step's outcome", async () => {
    const errors = allowConsoleError('"cron":"sitemap"');
    const order = await paidOrder("card");
    expect((await order.sellerClient.post(`/api/payments/orders/${order.orderId}/handed-over`)).status).toBe(200);

    const outcomes = await runScheduled(withR2Down(), later(49));

    expect(outcomes.find((o) => o.step === "sitemap")).toMatchObject({ ok: false, error: "R2 is unavailable" });
    expect(outcomes.filter((o) => !o.ok).map((o) => o.step)).toEqual(["sitemap"]);
    // Read from D1: the run 49 hours on also purged the parties' sessions, as it would then.
    expect(await env.DB.prepare("SELECT state FROM orders WHERE id = ?1").bind(order.orderId).first("state")).toBe("released");
    expect((await moneyFor(order)).transfers).toHaveLength(1);
    expect(await stepRow("orders")).toMatchObject({ last_ok: 1, failures_in_a_row: 0 });
    expect(await stepRow("sitemap")).toMatchObject({ last_ok: 0, failures_in_a_row: 1, last_error: "R2 is unavailable" });
    expect(errors.calls().length).toBe(1);
  }, 60_000);

  it("a step failing twice in a row mails every admin once; its next success clears the count", async () => {
    allowConsoleError('"cron":"sitemap"');
    const admin = await createUser({ role: "admin" });
    const alerts = async () => (await outboxTo(admin.email)).filter((m) => ALERT.test(m.subject));
    // A run where every step succeeds starts the count from nothing.
    await runScheduled(env as Bindings);
    expect(await stepRow("sitemap")).toMatchObject({ last_ok: 1, failures_in_a_row: 0 });

    await runScheduled(withR2Down());
    expect(await alerts()).toHaveLength(0);
    await runScheduled(withR2Down());
    expect((await alerts()).map((m) => m.subject)).toEqual(["Lekebytte: steget «sitemap» i timejobben har feilet 2 ganger på rad"]);
    expect((await alerts())[0].text_body).toContain("R2 is unavailable");
    await runScheduled(withR2Down());
    expect(await alerts()).toHaveLength(1);
    expect(await stepRow("sitemap")).toMatchObject({ failures_in_a_row: 3 });

    await runScheduled(env as Bindings);
    expect(await stepRow("sitemap")).toMatchObject({ last_ok: 1, failures_in_a_row: 0, alerted_at: null });
    await runScheduled(withR2Down());
    await runScheduled(withR2Down());
    expect(await alerts()).toHaveLength(2);
  }, 60_000);
});
