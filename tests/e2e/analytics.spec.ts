// Analytics in Chromium against the app as `npm start` runs it (local Queue, consumer, R2, D1): the
// consent banner, what is stored without consent, and a visitor's view reaching the owner's
// statistics through the queue.
import type { APIRequestContext, Page, Request } from "@playwright/test";
import jpeg from "jpeg-js";
import { expect, test } from "./fixtures";
import { deleteAccount, E2E_PASSWORD, signUpAndSignIn, uniqueEmail } from "./support/accounts";

test.use({ analyticsConsent: null });

interface CreatedListing {
  id: string;
  title: string;
  seo_slug: string;
}

/** A listing of the request context's (signed-in) user. */
async function createOwnListing(request: APIRequestContext): Promise<CreatedListing> {
  // A listing needs a photo: a small plain JPEG.
  const width = 64;
  const height = 48;
  const pixels = Buffer.alloc(width * height * 4, 200);
  const upload = await request.post("/api/images", {
    data: jpeg.encode({ data: pixels, width, height }, 80).data,
    headers: { "Content-Type": "image/jpeg" },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const { key } = (await upload.json()) as { key: string };
  const title = `Analysetest dukkehus ${Date.now().toString(36)}`;
  const res = await request.post("/api/listings", {
    data: {
      title,
      category: "dukker",
      age_range: "3-5 år",
      condition_rating: 4,
      price: "300",
      is_free: false,
      is_trade_offer: false,
      postal_code: "0150",
      images: [key],
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as CreatedListing;
}

const banner = (page: Page) => page.getByRole("region", { name: "Hjelp oss å gjøre Lekebytte bedre" });

/**
 * Record layout shifts and the moment the consent banner appears, from the first byte of the page
 * (an init script), so a test can tell the banner's effect from the page's own.
 */
async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as {
      __shifts: { at: number; value: number; banner: boolean }[];
      __bannerAt: number | null;
      __takeShifts: () => void;
    };
    w.__shifts = [];
    w.__bannerAt = null;
    const note = (entries: PerformanceEntryList) => {
      for (const entry of entries as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources?: { node?: Node | null }[];
      })[]) {
        if (entry.hadRecentInput) continue;
        const banner = (entry.sources ?? []).some(
          (s) => s.node instanceof Element && s.node.closest("[data-testid=consent-banner]") !== null,
        );
        w.__shifts.push({ at: entry.startTime, value: entry.value, banner });
      }
    };
    const observer = new PerformanceObserver((list) => note(list.getEntries()));
    observer.observe({ type: "layout-shift", buffered: true });
    // The records not yet handed to the callback, on demand (see layoutShifts).
    w.__takeShifts = () => note(observer.takeRecords());
    new MutationObserver((_, observer) => {
      if (document.querySelector("[data-testid=consent-banner]")) {
        w.__bannerAt = performance.now();
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

/**
 * The shifts so far, once the frames after the banner's have been drawn: a shift is recorded with the
 * frame that draws it, so two more frames and the observer's pending records hold any the banner
 * caused (it has no animation; finished animations are awaited anyway).
 */
async function layoutShifts(page: Page) {
  return page.evaluate(async () => {
    const finite = document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const w = window as unknown as {
      __shifts: { at: number; value: number; banner: boolean }[];
      __bannerAt: number | null;
      __takeShifts: () => void;
    };
    w.__takeShifts();
    const after = w.__shifts.filter((s) => w.__bannerAt !== null && s.at >= w.__bannerAt);
    return {
      bannerAt: w.__bannerAt,
      ofBanner: w.__shifts.filter((s) => s.banner).length,
      afterBanner: after.reduce((sum, s) => sum + s.value, 0),
    };
  });
}

/**
 * What the page stored on the device, leaving out the functional keys the privacy page lists
 * (`lekebytte:scroll`, `lekebytte:listing-draft:…`): they never leave the browser and are no analytics.
 */
async function storageOf(page: Page) {
  return page.evaluate(() => {
    const keys = (storage: Storage) =>
      Object.keys(storage)
        .filter((k) => !k.startsWith("lekebytte:"))
        .sort();
    return { local: keys(window.localStorage), session: keys(window.sessionStorage), cookies: document.cookie };
  });
}

/**
 * Follows the page's requests; `quiet()` waits until none is in flight after the page's main thread
 * has been idle. Tracking without consent would start from the page's own effects and show up as a
 * request (the tracker's chunk, then its reports) before that, so it proves that none was sent.
 */
function watchRequests(page: Page) {
  const inFlight = new Set<Request>();
  page.on("request", (r) => inFlight.add(r));
  page.on("requestfinished", (r) => inFlight.delete(r));
  page.on("requestfailed", (r) => inFlight.delete(r));
  const idle = () => page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 2_000 })));
  return {
    quiet: () =>
      expect
        .poll(
          async () => {
            await idle();
            return inFlight.size;
          },
          { message: "no request in flight" },
        )
        .toBe(0),
  };
}

test("the banner comes with the HTML on a first visit, and the <head> script hides it before any script file runs once answered", async ({
  page,
}) => {
  // Only the shell's own inline script may run: the app's files are held back, so what shows is the
  // HTML as served (no flash for someone who answered, whatever the app's code does later).
  await page.route(/\/assets\/.+\.js$/, (route) => route.abort());
  await page.goto("/om-oss");
  await expect(banner(page)).toBeVisible();
  await expect(banner(page).getByRole("heading", { level: 2, name: "Hjelp oss å gjøre Lekebytte bedre" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.hasAttribute("data-consent"))).toBe(false);

  for (const choice of ["necessary", "analytics"]) {
    await page.evaluate((c) => window.localStorage.setItem("lb_consent", c), choice);
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.dataset.consent)).toBe(choice);
    await expect(page.getByTestId("consent-banner")).toBeHidden();
    expect(await page.getByTestId("consent-banner").evaluate((el) => getComputedStyle(el).display)).toBe("none");
  }
});

test("the consent banner overlays the page without shifting it, and 'Bare nødvendige' stores only the choice", async ({ page }) => {
  const analytics: Request[] = [];
  const requests = watchRequests(page);
  page.on("request", (r) => {
    if (r.url().includes("/api/analytics/")) analytics.push(r);
  });

  await recordLayoutShifts(page);
  await page.goto("/om-oss");
  await expect(banner(page)).toBeVisible();
  // A fixed overlay at the bottom: nothing of the page moves when it appears, and it does not move.
  const box = await banner(page).boundingBox();
  expect(box!.y + box!.height).toBeCloseTo(page.viewportSize()!.height, 0);
  const shifts = await layoutShifts(page);
  expect(shifts.bannerAt).not.toBeNull();
  expect(shifts.ofBanner).toBe(0);
  expect(shifts.afterBanner).toBe(0);
  expect(await storageOf(page)).toEqual({ local: [], session: [], cookies: "" });

  await banner(page).getByRole("button", { name: "Bare nødvendige" }).click();
  await expect(banner(page)).toBeHidden();
  expect(await storageOf(page)).toEqual({ local: ["lb_consent"], session: [], cookies: "" });

  // Browsing on: no analytics request, nothing more stored, no banner.
  await page.goto("/search?q=lego");
  await expect(page.getByText(/annonse/).first()).toBeVisible();
  await page.goto("/");
  await page.locator('a[href^="/annonse/"]').first().click();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await requests.quiet();
  expect(analytics.map((r) => r.url())).toEqual([]);
  expect(await storageOf(page)).toEqual({ local: ["lb_consent"], session: [], cookies: "" });
  await expect(banner(page)).toBeHidden();

  // The choice can be changed on the privacy page, and withdrawn again.
  await page.goto("/personvern#informasjonskapsler");
  const settings = page.getByTestId("consent-settings");
  await expect(settings.getByRole("status")).toContainText("Du har valgt bare nødvendige.");
  const session = page.waitForRequest((r) => r.url().endsWith("/api/analytics/sessions"));
  await settings.getByRole("button", { name: "Godta analyse" }).click();
  await session;
  expect((await storageOf(page)).session).toEqual(["lb_analytics_session"]);
  // The server's signed session cookie (decision 038) comes with consent and goes with it.
  await expect.poll(async () => (await storageOf(page)).cookies).toMatch(/^lb_analytics=[0-9a-f-]{36}\.\d+\.[\w-]{43}$/);
  await settings.getByRole("button", { name: "Bare nødvendige" }).click();
  await expect(settings.getByRole("status")).toContainText("Du har valgt bare nødvendige.");
  await expect.poll(async () => (await storageOf(page)).session).toEqual([]);
  expect((await storageOf(page)).cookies).toBe("");
});

test("a visitor who accepts analytics views a listing, and its owner sees the view counted", async ({ page, request }) => {
  test.setTimeout(90_000);
  const owner = uniqueEmail("analytics-owner");
  await signUpAndSignIn(request, owner, "Anna Eier");
  const listing = await createOwnListing(request);

  try {
    // The visitor: accept analytics, open the listing, stay a while, leave. The browser's clock is
    // Playwright's, so the stay passes at once (clock.fastForward) instead of in a real 6 s wait.
    await page.clock.install();
    await page.goto("/");
    // The session cookie comes with the answer to POST /sessions: a full page load before it is in
    // would abort that request (the tracker then renews the session on its first 403).
    const sessionMade = page.waitForResponse((r) => r.url().endsWith("/api/analytics/sessions"));
    await banner(page).getByRole("button", { name: "Godta analyse" }).click();
    await expect(banner(page)).toBeHidden();
    expect((await sessionMade).status()).toBe(202);
    const firstReport = page.waitForResponse((r) => r.url().endsWith("/api/analytics/listing-views") && r.request().method() === "POST");
    await page.goto(`/annonse/${listing.seo_slug}`);
    await expect(page.getByRole("heading", { level: 1, name: listing.title })).toBeVisible();
    expect((await firstReport).status()).toBe(202);
    // The tracker reports the scroll after a second's pause; then the visitor stays six seconds more.
    const scrollReport = page.waitForRequest((r) => r.url().endsWith("/api/analytics/listing-views") && r.method() === "POST");
    await page.mouse.wheel(0, 600);
    await scrollReport;
    await page.clock.fastForward(6_000);
    const finalReport = page.waitForRequest(
      (r) =>
        r.url().endsWith("/api/analytics/listing-views") &&
        (JSON.parse(r.postData() ?? "{}") as { viewDurationMs?: number }).viewDurationMs! > 5_000,
    );
    await page
      .getByRole("banner")
      .getByRole("link", { name: /Lekebytte/ })
      .first()
      .click();
    await finalReport;

    // The owner signs in (same browser, so the visit above is the only one) and opens the listing.
    const signin = await page.request.post("/api/auth/signin", { data: { email: owner, password: E2E_PASSWORD } });
    expect(signin.status()).toBe(200);
    await page.goto(`/annonse/${listing.seo_slug}`);
    const stats = page.getByRole("region", { name: "Statistikk" });
    const figure = (label: string) => stats.getByTestId("listing-stats-figures").locator("div", { hasText: label }).locator("dd");
    // The consumer receives the queue's batch after at most 5 s.
    await expect(async () => {
      await page.reload();
      await expect(figure("Visninger")).toHaveText("1", { timeout: 2_000 });
    }).toPass({ timeout: 40_000, intervals: [1_000, 2_000] });
    await expect(figure("Unike besøk")).toHaveText("1");
    await expect(figure("Snittid på annonsen")).toHaveText(/^\d+ s$/);
    await expect(stats.getByRole("img", { name: /1 i alt/ })).toBeVisible();
    await stats.getByText("Vis tall per dag").click();
    await expect(stats.getByRole("table")).toBeVisible();

    // "Mine annonser": the row's figure and its statistics.
    await page.goto("/my-listings");
    const row = page.getByRole("listitem").filter({ hasText: listing.title });
    await expect(row.getByText("1 visning siste 30 dager")).toBeVisible();
    await row.getByRole("button", { name: `Statistikk ${listing.title}` }).click();
    await expect(row.getByRole("img", { name: /1 i alt/ })).toBeVisible();
  } finally {
    await request.delete(`/api/listings/${listing.id}`);
    await deleteAccount(request);
  }
});

test("nobody else can read a listing's statistics", async ({ page, request }) => {
  await signUpAndSignIn(request, uniqueEmail("analytics-owner"), "Anna Eier");
  const listing = await createOwnListing(request);
  try {
    expect((await page.request.get(`/api/analytics/listings/${listing.id}`)).status()).toBe(401);
    await signUpAndSignIn(page.request, uniqueEmail("analytics-other"), "Ola Annen");
    expect((await page.request.get(`/api/analytics/listings/${listing.id}`)).status()).toBe(404);
    await page.goto(`/annonse/${listing.seo_slug}`);
    await expect(page.getByRole("heading", { level: 1, name: listing.title })).toBeVisible();
    await expect(page.getByRole("region", { name: "Statistikk" })).toHaveCount(0);
  } finally {
    await request.delete(`/api/listings/${listing.id}`);
    await deleteAccount(request);
    await deleteAccount(page.request);
  }
});
