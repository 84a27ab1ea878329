// Performance budget: the JavaScript each of the nine pages of `npm run bench:pages` loads before it
// is idle, gzipped, must stay under 120 KB (phones on slow networks come first). Signed out: /,
// /search, a slug page, /listing/{id}, /auth; signed in: /messages, two chats of the demo user Kari
// (the one with the trade offer card, and her most recent, a completed deal with its review prompt,
// which is the one the benchmark measures), /trade-history and /payment-success after a real card
// purchase on the payment sandbox (its success state shows a toast, which loads its own chunk).
// What keeps them under it, and what was measured and tried: decisions 104 and 159.
import { gzipSync } from "node:zlib";
import type { APIRequestContext, Page, Response, TestInfo } from "@playwright/test";
import { expect, test } from "./fixtures";
import { deleteAccount, signUpAndSignIn, uniqueEmail } from "./support/accounts";
import { DEMO_LISTINGS, DEMO_PASSWORD, demoListing } from "./support/demo";
import { publishListing } from "./support/listings";
import { connectStripe } from "./support/payments";

const BUDGET_BYTES = 120 * 1024;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/**
 * A page not yet down to 120 KB, held at its measured size rounded up to the next KB (a ratchet:
 * lower it when the page shrinks, remove it at 120, never raise it). The chat with a completed
 * deal loads the review prompt's code beside everything the other chat loads (decision 159).
 */
const RATCHET = { title: DEMO_LISTINGS.karisLatestChat, bytes: 123 * 1024 };

// A first visit: no analytics choice yet, so the consent banner shows.
test.use({ analyticsConsent: null });

/** The gzipped JavaScript `path` loads until the network is idle, per file and in total. */
async function measure(
  page: Page,
  path: string,
  testInfo: TestInfo,
  ceiling = BUDGET_BYTES,
): Promise<{ total: number; report: string; ceiling: number }> {
  const scripts = new Map<string, Promise<Buffer | null>>();
  const onResponse = (response: Response) => {
    const type = response.headers()["content-type"] ?? "";
    const isScript = response.request().resourceType() === "script" || /javascript|ecmascript/.test(type);
    if (!isScript || scripts.has(response.url())) return;
    // Read the body now: it is gone once the page navigates or closes.
    scripts.set(
      response.url(),
      response.body().catch(() => null),
    );
  };
  page.on("response", onResponse);
  // A first visit every time: nothing from the earlier pages' cache.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await page.goto(path, { waitUntil: "load" });
  await page.waitForLoadState("networkidle");
  page.off("response", onResponse);
  await cdp.detach();
  expect(new URL(page.url()).pathname, `${path} was not redirected`).toBe(new URL(path, "http://x").pathname);

  const rows: { url: string; raw: number; gzip: number }[] = [];
  for (const [url, body] of scripts) {
    const bytes = await body;
    if (!bytes) continue;
    // Default zlib level: close to what a CDN sends when it compresses on the fly.
    rows.push({ url: new URL(url).pathname, raw: bytes.length, gzip: gzipSync(bytes).length });
  }
  expect(rows.length, `${path} loads JavaScript`).toBeGreaterThan(0);
  const total = rows.reduce((sum, r) => sum + r.gzip, 0);
  const raw = rows.reduce((sum, r) => sum + r.raw, 0);
  const report = [
    ...rows.sort((a, b) => b.gzip - a.gzip).map((r) => `  ${kb(r.gzip).padStart(9)} gz  ${kb(r.raw).padStart(9)} raw  ${r.url}`),
    `  ${kb(total).padStart(9)} gz  ${kb(raw).padStart(9)} raw  total (${rows.length} files, ceiling ${kb(ceiling)})`,
  ].join("\n");
  console.log(`JavaScript loaded by ${path} before idle:\n${report}`);
  testInfo.annotations.push({ type: "size-budget", description: `${path}: ${kb(total)} gzipped JS (ceiling ${kb(ceiling)})` });
  await testInfo.attach(`js-size ${path.replaceAll("/", "_")}.txt`, { body: report, contentType: "text/plain" });
  return { total, report, ceiling };
}

async function signInAs(request: APIRequestContext, email: string): Promise<void> {
  const res = await request.post("/api/auth/signin", { data: { email, password: DEMO_PASSWORD } });
  expect(res.status(), await res.text()).toBe(200);
}

/** Every page's total, checked at the end so one report names all pages over their ceiling. */
function budget() {
  const over: string[] = [];
  return {
    note(path: string, { total, report, ceiling }: { total: number; report: string; ceiling: number }) {
      if (total > ceiling) over.push(`${path}: ${kb(total)} (ceiling ${kb(ceiling)})\n${report}`);
    },
    check() {
      expect(over, `pages over ${kb(BUDGET_BYTES)} of gzipped JavaScript`).toEqual([]);
    },
  };
}

test("signed out: home, search, a slug page, the listing page and auth load at most 120 KB of gzipped JavaScript each", async ({
  page,
}, testInfo) => {
  // Five pages, each measured until the network is idle and scanned by the fixture.
  test.setTimeout(90_000);
  const listing = await demoListing(page.request, DEMO_LISTINGS.free);
  const pages = ["/", "/search", `/annonse/${listing.seo_slug}`, `/listing/${listing.id}`, "/auth"];
  const result = budget();
  for (const path of pages) result.note(path, await measure(page, path, testInfo));
  result.check();
});

test("signed in: messages, two chats and the trade history load at most 120 KB of gzipped JavaScript each (or the ratchet)", async ({
  page,
}, testInfo) => {
  await signInAs(page.request, "kari@lekebytte.test");
  const conversations = (await (await page.request.get("/api/conversations")).json()) as { id: string; listing: { title: string } }[];
  const chatAbout = (title: string) => {
    const chat = conversations.find((c) => c.listing.title === title);
    expect(chat, `Kari's conversation about ${title}`).toBeDefined();
    return `/chat/${chat!.id}`;
  };
  const result = budget();
  for (const path of ["/messages", chatAbout(DEMO_LISTINGS.olasTrade), "/trade-history"])
    result.note(path, await measure(page, path, testInfo));
  const latest = chatAbout(RATCHET.title);
  result.note(latest, await measure(page, latest, testInfo, RATCHET.bytes));
  result.check();
});

test("signed in: the payment result of a card purchase loads at most 120 KB of gzipped JavaScript", async ({
  page,
  playwright,
}, testInfo) => {
  test.setTimeout(90_000);
  const seller = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  await signUpAndSignIn(seller, uniqueEmail("size-selger"), "Siri Selger");
  await signUpAndSignIn(page.request, uniqueEmail("size-kjoper"), "Kari Kjøper");
  try {
    await connectStripe(seller);
    const listing = await publishListing(seller, { title: `E2E Sparkesykkel ${Date.now().toString(36)}`, price: "250" });
    const checkout = await page.request.post("/api/payments/checkout", { data: { listing_id: listing.id, method: "card" } });
    expect(checkout.ok(), await checkout.text()).toBe(true);
    const { url } = (await checkout.json()) as { url: string };
    // The sandbox's Checkout form, as the buyer submits it: its redirect is Stripe's success URL.
    const paid = await page.request.post(url, {
      form: { email: "kjoper@example.test", card: "4242 4242 4242 4242", expiry: "12 / 40", cvc: "123", name: "Kari Kjøper" },
      maxRedirects: 0,
    });
    expect(paid.status(), await paid.text()).toBe(303);
    const success = new URL(paid.headers().location!);
    await expect
      .poll(async () => ((await (await page.request.get("/api/payments/purchases")).json()) as unknown[]).length, {
        message: "the sandbox's webhook completes the purchase",
      })
      .toBe(1);
    const path = `${success.pathname}${success.search}`;
    const measured = await measure(page, path, testInfo);
    await expect(page.getByRole("heading", { name: "Betaling fullført!" })).toBeVisible();
    const result = budget();
    result.note(path, measured);
    result.check();
  } finally {
    await deleteAccount(page.request);
    await deleteAccount(seller);
    await seller.dispose();
  }
});
