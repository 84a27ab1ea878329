// The cron's drift step (docs/decisions/134-operations-page.md): the admins are mailed once when a
// condition of /admin/drift appears, not on every run while it holds; once it has cleared, its next
// appearance mails again; two runs at once mail once; a failing cron step is left to its own alert;
// and the operator's counters are purged past their time.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../worker/env";
import { runDriftCron } from "../../../worker/features/admin/drift-alerts";
import { storeRequestError } from "../../../worker/lib/error-store";
import { createSale, createUser } from "../../factories";
import { outboxTo } from "../support/payments";

const HOUR = 3_600_000;
const ago = (hours: number) => new Date(Date.now() - hours * HOUR).toISOString();
const SUBJECT = /^Lekebytte: nytt på driftssiden: /;

async function driftMails(email: string) {
  return (await outboxTo(email)).filter((m) => SUBJECT.test(m.subject));
}

describe("the drift step of the hourly cron", () => {
  it("mails every admin once when held money passes its rules, again only after it has cleared and come back", async () => {
    const [admin, other] = [await createUser({ role: "admin" }), await createUser({ role: "admin" })];
    const moderator = await createUser({ role: "moderator" });
    const sale = await createSale({ orderState: "held", paidAt: ago(10 * 24), listing: { title: "Dukkevogn" } });

    expect(await runDriftCron(env as Bindings)).toEqual(["held_too_long"]);
    const mails = await driftMails(admin.email);
    expect(mails.map((m) => m.subject)).toEqual(["Lekebytte: nytt på driftssiden: penger holdt lenger enn reglene tillater"]);
    expect(mails[0].text_body).toContain("Penger holdt lenger enn reglene tillater: 1 kjøp");
    expect(mails[0].text_body).toContain("/admin/drift");
    expect(await driftMails(other.email)).toHaveLength(1);
    expect(await driftMails(moderator.email)).toHaveLength(0);

    // Still held an hour later: nothing new.
    expect(await runDriftCron(env as Bindings)).toEqual([]);
    expect(await driftMails(admin.email)).toHaveLength(1);

    // Cleared, then back: one more mail.
    await env.DB.prepare("UPDATE orders SET state = 'released', settled_at = ?2, money_moved_at = ?2 WHERE id = ?1")
      .bind(sale.id, ago(0))
      .run();
    expect(await runDriftCron(env as Bindings)).toEqual([]);
    await createSale({ orderState: "held", paidAt: ago(11 * 24) });
    expect(await runDriftCron(env as Bindings)).toEqual(["held_too_long"]);
    expect(await driftMails(admin.email)).toHaveLength(2);
  });

  it("two runs at once mail once", async () => {
    const admin = await createUser({ role: "admin" });
    await storeRequestError(
      env as Bindings,
      {
        type: "error",
        request_id: "a1b2c3d4e5f60718",
        method: "GET",
        route: "/api/home",
        status: 500,
        name: "Error",
        message: "x",
        stack: null,
      },
      null,
    );
    const runs = await Promise.all([runDriftCron(env as Bindings), runDriftCron(env as Bindings)]);
    expect(runs.flat().filter((c) => c === "errors")).toEqual(["errors"]);
    expect((await driftMails(admin.email)).filter((m) => m.subject.includes("feil siste time"))).toHaveLength(1);
  });

  it("leaves a failing cron step to its own alert", async () => {
    await env.DB.prepare(
      "INSERT INTO cron_steps (step, last_run_at, last_ok, last_error, last_ms, failures_in_a_row) VALUES ('sitemap', ?1, 0, 'R2 is unavailable', 5, 3)",
    )
      .bind(ago(0.2))
      .run();
    expect(await runDriftCron(env as Bindings)).not.toContain("cron_failing");
    expect(await env.DB.prepare("SELECT condition FROM drift_alerts WHERE condition = 'cron_failing'").first()).toBeNull();
  });

  it("purges errors older than a day and webhook counters older than two days", async () => {
    const line = (id: string) => ({
      type: "error" as const,
      request_id: id,
      method: "GET",
      route: "/*",
      status: 500,
      name: "Error",
      message: "x",
      stack: null,
    });
    await storeRequestError(env as Bindings, line("0000000000000old"), null, new Date(Date.now() - 25 * HOUR));
    await storeRequestError(env as Bindings, line("000000000000keep"), null, new Date(Date.now() - 23 * HOUR));
    await env.DB.batch([
      env.DB.prepare("INSERT INTO webhook_refusals (provider, code, hour, count, last_at) VALUES ('stripe', 'VALIDATION', ?1, 1, ?2)").bind(
        ago(49).slice(0, 13),
        ago(49),
      ),
      env.DB.prepare("INSERT INTO webhook_refusals (provider, code, hour, count, last_at) VALUES ('stripe', 'VALIDATION', ?1, 1, ?2)").bind(
        ago(47).slice(0, 13),
        ago(47),
      ),
    ]);
    await runDriftCron(env as Bindings);
    const errors = await env.DB.prepare(
      "SELECT request_id FROM request_errors WHERE request_id IN ('0000000000000old', '000000000000keep')",
    ).all();
    expect(errors.results.map((r) => r.request_id)).toEqual(["000000000000keep"]);
    const counters = await env.DB.prepare("SELECT hour FROM webhook_refusals ORDER BY hour").all<{ hour: string }>();
    expect(counters.results.map((r) => r.hour)).toEqual([ago(47).slice(0, 13)]);
  });
});
