// Saved-search alerts (docs/decisions/041-saved-search-alerts.md): a published listing is queued;
// the queue consumer matches the batch and mails each "Straks" search once, also when deliveries
// are repeated or race; a failed mail is retried; the hourly cron catches up listings the queue
// missed and sends one daily digest per user and Oslo day from 18:00, once, also when two runs race.
import { createExecutionContext, createMessageBatch, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../../worker/app";
import worker from "../../../worker";
import type { Bindings } from "../../../worker/env";
import {
  catchUpMatching,
  purgeSavedSearchHistory,
  runSavedSearchCron,
  sendDailyDigests,
} from "../../../worker/features/saved-searches/alerts";
import { matchListings } from "../../../worker/features/saved-searches/matching";
import { createListing, createSavedSearch, createUser, DAY, type TestUser } from "../../factories";
import { Client, ORIGIN } from "../support/http";
import { allowConsoleError } from "../support/console-guard";

const db = () => env.DB;
let counter = 0;

async function deliver(listingIds: unknown[], bindings: Bindings = env as Bindings) {
  const batch = createMessageBatch(
    "saved-search-matching",
    listingIds.map((listingId) => ({
      id: `ss-${++counter}-${crypto.randomUUID()}`,
      timestamp: new Date(),
      attempts: 1,
      body: { v: 1, listingId },
    })),
  );
  const ctx = createExecutionContext();
  let error: unknown;
  await worker.queue!(batch, bindings as never, ctx).catch((e: unknown) => (error = e));
  return { result: await getQueueResult(batch, ctx), error };
}

interface Mail {
  subject: string;
  text_body: string;
  html_body: string | null;
}

async function mailsTo(user: TestUser): Promise<Mail[]> {
  const rows = await env.DB.prepare("SELECT subject, text_body, html_body FROM dev_outbox WHERE to_address = ?1 ORDER BY created_at, rowid")
    .bind(user.email)
    .all<Mail>();
  return rows.results;
}

/** A moment on Oslo's clock, `days` from today. */
function osloAt(days: number, hour: number, minute = 0): Date {
  const now = new Date();
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone: "Europe/Oslo",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(now)
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<string, number>;
  const offset =
    Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) - Math.floor(now.getTime() / 1000) * 1000;
  return new Date(Date.UTC(parts.year, parts.month - 1, parts.day + days, hour, minute) - offset);
}

function unsubscribeTokenIn(mail: Mail): string {
  const match = /\/lagrede-sok\/avmeld\?token=(\S+)/.exec(mail.text_body);
  expect(match, mail.text_body).not.toBeNull();
  return decodeURIComponent(match![1]);
}

describe("publishing a listing", () => {
  it("queues it for matching after the answer", async () => {
    const password = "hemmelig-kø-1";
    const seller = await createUser({ password });
    const client = new Client();
    await client.post("/api/auth/signin", { email: seller.email, password });
    const key = `${seller.id}/${crypto.randomUUID()}.jpg`;
    await env.IMAGES.put(key, new Uint8Array([0xff, 0xd8, 0xff, 1]));
    const sent: unknown[] = [];
    const queue = { send: async (message: unknown) => void sent.push(message) } as unknown as Queue;
    const ctx = createExecutionContext();
    const request = new Request(`${ORIGIN}/api/listings`, {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
      body: JSON.stringify({
        title: "Sandkasse",
        category: "ute-lek",
        age_range: "3-5 år",
        condition_rating: 4,
        price: "100",
        is_free: false,
        is_trade_offer: false,
        postal_code: "0150",
        images: [key],
      }),
    });
    const res = await app.fetch(request, { ...env, SAVED_SEARCH_QUEUE: queue }, ctx);
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    await waitOnExecutionContext(ctx);
    expect(sent).toEqual([{ v: 1, listingId: id }]);
  });
});

describe("the queue consumer", () => {
  it("mails each search with an immediate alert once, with its new listings and its own unsubscribe link", async () => {
    const searcher = await createUser({ displayName: "Kari" });
    const now = await createSavedSearch(searcher.id, "q=sklie", { name: "Sklie", alert: "immediate" });
    await createSavedSearch(searcher.id, "q=sklie&trade=true", { name: "Sklie bytte", alert: "daily" });
    await createSavedSearch(searcher.id, "q=sklie&free=true", { name: "Sklie gratis", alert: "off" });
    const a = await createListing({ title: "Sklie til hagen", price: 450, isTradeOffer: true, isFree: false });
    const b = await createListing({ title: "Liten sklie", isFree: true, price: null });

    const { result, error } = await deliver([a.id, b.id]);
    expect(error).toBeUndefined();
    expect(result.retryMessages).toEqual([]);
    const mails = await mailsTo(searcher);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe("2 nye annonser for «Sklie»");
    expect(mails[0].text_body).toContain("Hei Kari!");
    expect(mails[0].text_body).toContain(`• Liten sklie – Gratis\n  http://localhost:8787/annonse/${b.seoSlug}`);
    expect(mails[0].text_body).toContain(`• Sklie til hagen – 450 kr`);
    expect(mails[0].text_body).toContain("Se alle treff: http://localhost:8787/search?q=sklie");
    expect(mails[0].html_body).toContain(`href="http://localhost:8787/annonse/${a.seoSlug}"`);

    // The link switches off this search's alert, signed out.
    const res = await new Client().post("/api/saved-searches/unsubscribe", { token: unsubscribeTokenIn(mails[0]) });
    expect(await res.json()).toEqual({ name: "Sklie" });
    expect(await env.DB.prepare("SELECT alert FROM saved_searches WHERE id = ?1").bind(now.id).first()).toEqual({ alert: "off" });
  });

  it("sends nothing twice: a redelivered batch and two deliveries at once", async () => {
    const searcher = await createUser();
    await createSavedSearch(searcher.id, "q=dukkehus", { name: "Dukkehus" });
    const first = await createListing({ title: "Dukkehus i tre" });
    await deliver([first.id]);
    await deliver([first.id]);
    expect(await mailsTo(searcher)).toHaveLength(1);

    const second = await createListing({ title: "Dukkehus med møbler" });
    const runs = await Promise.all([deliver([second.id]), deliver([second.id]), deliver([second.id])]);
    expect(runs.map((r) => r.error)).toEqual([undefined, undefined, undefined]);
    const mails = await mailsTo(searcher);
    expect(mails).toHaveLength(2);
    expect(mails[1].subject).toBe("Ny annonse for «Dukkehus»: Dukkehus med møbler");
  });

  it("sends nothing for a listing gone before its alert, nor to an owner who cannot receive mail", async () => {
    const searcher = await createUser();
    const unconfirmed = await createUser({ emailConfirmed: false });
    await createSavedSearch(searcher.id, "q=barnestol");
    await createSavedSearch(unconfirmed.id, "q=barnestol");
    const listing = await createListing({ title: "Barnestol" });
    await matchListings(db(), [listing.id]);
    await env.DB.prepare("UPDATE listings SET is_hidden = 1 WHERE id = ?1").bind(listing.id).run();
    await deliver([listing.id]);
    expect(await mailsTo(searcher)).toEqual([]);

    const visible = await createListing({ title: "Barnestol, hvit" });
    await deliver([visible.id]);
    expect(await mailsTo(searcher)).toHaveLength(1);
    expect(await mailsTo(unconfirmed)).toEqual([]);
  });

  it("drops a message without a listing id", async () => {
    const { result, error } = await deliver(["ikke-en-id", null]);
    expect(error).toBeUndefined();
    expect(result.retryMessages).toEqual([]);
  });

  it("puts an alert whose mail failed back, fails the batch for a retry, and sends it then", async () => {
    // The queue handler's first batch reports what this made-up deployment lacks (worker/start-report.ts).
    allowConsoleError('"setting"');
    const searcher = await createUser();
    await createSavedSearch(searcher.id, "q=vippehuske", { name: "Vippehuske" });
    const listing = await createListing({ title: "Vippehuske" });
    const sent: { to: string; subject: string }[] = [];
    let failing = true;
    const production = {
      ...env,
      APP_ENV: "production",
      JWT_SECRET: "produksjonshemmelighet-som-er-lang-nok-0123456789",
      EMAIL: {
        send: async (m: { to: string; subject: string }) => {
          if (failing) throw new Error("mail provider down");
          sent.push(m);
        },
      },
    } as unknown as Bindings;
    const failed = await deliver([listing.id], production);
    expect(failed.error).toBeInstanceOf(AggregateError);
    expect(await env.DB.prepare("SELECT alert_state FROM saved_search_matches WHERE listing_id = ?1").bind(listing.id).first()).toEqual({
      alert_state: "pending",
    });
    failing = false;
    const retried = await deliver([listing.id], production);
    expect(retried.error).toBeUndefined();
    expect(sent).toEqual([expect.objectContaining({ to: searcher.email, subject: "Ny annonse for «Vippehuske»: Vippehuske" })]);
    expect(await env.DB.prepare("SELECT alert_state FROM saved_search_matches WHERE listing_id = ?1").bind(listing.id).first()).toEqual({
      alert_state: "done",
    });
  });
});

describe("the daily digest", () => {
  it("goes out from 18:00 Oslo time: one mail per user and day with a section per search, once, also when runs race", async () => {
    const searcher = await createUser({ displayName: "Ola" });
    const other = await createUser();
    const dolls = await createSavedSearch(searcher.id, "q=dukkeseng", { name: "Dukkeseng", alert: "daily" });
    await createSavedSearch(searcher.id, "q=dukkevogn", { name: "Dukkevogn", alert: "daily" });
    await createSavedSearch(searcher.id, "q=dukkeseng&free=true", { name: "Straks", alert: "immediate" });
    await createSavedSearch(other.id, "q=dukkevogn", { name: "Vogn", alert: "daily" });
    const listings = [
      await createListing({ title: "Dukkeseng" }),
      await createListing({ title: "Dukkevogn" }),
      await createListing({ title: "Dukkevogn, rosa" }),
    ];
    await matchListings(
      db(),
      listings.map((l) => l.id),
    );

    await runSavedSearchCron(env as Bindings, osloAt(0, 17, 30));
    expect(await mailsTo(searcher)).toEqual([]);

    await Promise.all([
      runSavedSearchCron(env as Bindings, osloAt(0, 18, 5)),
      runSavedSearchCron(env as Bindings, osloAt(0, 18, 5)),
      sendDailyDigests(env as Bindings, db(), osloAt(0, 18, 6)),
    ]);
    const mails = await mailsTo(searcher);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe("Dagens nye annonser fra 2 lagrede søk");
    expect(mails[0].text_body).toContain("Hei Ola!");
    expect(mails[0].text_body).toMatch(
      /«Dukkeseng» – 1 ny annonse[\s\S]*Slå av varselet for «Dukkeseng» \(du trenger ikke logge inn\):[\s\S]*«Dukkevogn» – 2 nye annonser[\s\S]*Slå av varselet for «Dukkevogn» \(du trenger ikke logge inn\):/,
    );
    expect(mails[0].text_body).not.toContain("«Straks»");
    expect(await mailsTo(other)).toHaveLength(1);

    // Two sections, two links, each switching off only its own search.
    const tokens = [...mails[0].text_body.matchAll(/\/lagrede-sok\/avmeld\?token=(\S+)/g)].map((m) => decodeURIComponent(m[1]));
    expect(tokens).toHaveLength(2);
    expect(await (await new Client().post("/api/saved-searches/unsubscribe", { token: tokens[0] })).json()).toEqual({ name: "Dukkeseng" });
    expect(
      await env.DB.prepare("SELECT name, alert FROM saved_searches WHERE user_id = ?1 ORDER BY name")
        .bind(searcher.id)
        .all()
        .then((r) => r.results),
    ).toEqual([
      { name: "Dukkeseng", alert: "off" },
      { name: "Dukkevogn", alert: "daily" },
      { name: "Straks", alert: "immediate" },
    ]);
    expect(dolls.alert).toBe("daily");

    // A match that arrives after the day's digest waits for the next day's.
    const late = await createListing({ title: "Dukkevogn, blå" });
    await matchListings(db(), [late.id]);
    await runSavedSearchCron(env as Bindings, osloAt(0, 21, 0));
    expect(await mailsTo(searcher)).toHaveLength(1);
    await runSavedSearchCron(env as Bindings, osloAt(1, 18, 0));
    const next = await mailsTo(searcher);
    expect(next).toHaveLength(2);
    expect(next[1].subject).toBe("Dagens nye annonser for «Dukkevogn»");
    expect(next[1].text_body).toContain("Dukkevogn, blå");
    expect(next[1].text_body).not.toContain("Dukkevogn, rosa");
  });
});

describe("the cron", () => {
  it("matches listings the queue never saw and sends their immediate alerts, once", async () => {
    const searcher = await createUser();
    await createSavedSearch(searcher.id, "q=trehjulssykkel", { name: "Trehjulssykkel" });
    const listing = await createListing({ title: "Trehjulssykkel" }); // no queue message
    await runSavedSearchCron(env as Bindings, osloAt(0, 9));
    expect((await mailsTo(searcher)).map((m) => m.subject)).toEqual(["Ny annonse for «Trehjulssykkel»: Trehjulssykkel"]);
    await runSavedSearchCron(env as Bindings, osloAt(0, 10));
    await deliver([listing.id]);
    expect(await mailsTo(searcher)).toHaveLength(1);
    const cursor = await env.DB.prepare("SELECT rid FROM saved_search_cursor WHERE id = 1").first<{ rid: number }>();
    const top = await env.DB.prepare("SELECT MAX(rid) AS rid FROM listing_search_map").first<{ rid: number }>();
    expect(cursor?.rid).toBe(top?.rid);
    expect(await catchUpMatching(db())).toMatchObject({ listings: 0 });
  });

  it("purges matches after 30 days and digest claims after 7", async () => {
    const searcher = await createUser();
    const saved = await createSavedSearch(searcher.id, "q=gammelt");
    const listing = await createListing({ title: "Gammelt" });
    await matchListings(db(), [listing.id], new Date(Date.now() - 31 * DAY));
    await env.DB.prepare("INSERT INTO saved_search_digests (user_id, day, claim) VALUES (?1, '2000-01-01', 'x')").bind(searcher.id).run();
    await purgeSavedSearchHistory(db());
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM saved_search_matches WHERE saved_search_id = ?1").bind(saved.id).first(),
    ).toEqual({ n: 0 });
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM saved_search_digests WHERE user_id = ?1").bind(searcher.id).first()).toEqual({
      n: 0,
    });
  });

  it("keeps going when one step fails, and reports the failure", async () => {
    const searcher = await createUser();
    await createSavedSearch(searcher.id, "q=balansesykkel");
    await createListing({ title: "Balansesykkel" });
    const broken = {
      ...env,
      APP_ENV: "production",
      JWT_SECRET: "produksjonshemmelighet-som-er-lang-nok-0123456789",
    } as unknown as Bindings; // no EMAIL binding
    await expect(runSavedSearchCron(broken, osloAt(0, 19))).rejects.toThrow("saved-search cron failed");
    // The purge still ran after the failed alert step; the alert is pending for the next run.
    expect(
      await env.DB.prepare(
        "SELECT alert_state FROM saved_search_matches m JOIN saved_searches s ON s.id = m.saved_search_id WHERE s.user_id = ?1",
      )
        .bind(searcher.id)
        .first(),
    ).toEqual({ alert_state: "pending" });
    await runSavedSearchCron(env as Bindings, osloAt(0, 19));
    expect(await mailsTo(searcher)).toHaveLength(1);
  });
});
