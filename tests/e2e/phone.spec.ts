// What a new user meets on a 390 px phone (the default viewport of these specs): listings in the
// first screen, nothing that jumps while the page loads, one search box on /search, scroll
// positions kept on Back, the listing's action bar at the bottom of the screen, and no console
// errors for a visitor.
import type { Browser, ConsoleMessage, Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { deleteAccount, signUpAndSignIn, uniqueEmail } from "./support/accounts";
import { publishListing } from "./support/listings";
import { DEMO_LISTINGS, demoListing } from "./support/demo";
import { connectStripe } from "./support/payments";
import { screenshotToLookAt } from "./support/screenshots";

const VIEWPORT_HEIGHT = 844;

/** Sum of layout shifts while the page loads, as Lighthouse counts them (none within 500 ms of input). */
async function collectLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __cls: number };
    w.__cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
        if (!entry.hadRecentInput) w.__cls += entry.value;
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

const cumulativeLayoutShift = (page: Page) => page.evaluate(() => (window as unknown as { __cls: number }).__cls);

test("home: the first listing photos are in the first screen and nothing shifts while it loads", async ({ page }) => {
  await collectLayoutShifts(page);
  await page.goto("/");
  const firstPhoto = page.getByRole("main").locator("article img").first();
  await expect(firstPhoto).toBeVisible();
  const box = (await firstPhoto.boundingBox())!;
  // The whole first row of photos is visible without scrolling (it started at ~700 px before).
  expect(box.y + box.height).toBeLessThan(VIEWPORT_HEIGHT * 0.6);
  expect(await firstPhoto.getAttribute("loading")).toBe("eager");
  expect(await cumulativeLayoutShift(page)).toBeLessThanOrEqual(0.05);
});

test("/search: one search box, results in the first screen, nothing shifts while it loads", async ({ page }) => {
  await collectLayoutShifts(page);
  await page.goto("/search");
  await expect(page.getByRole("searchbox")).toHaveCount(1);
  await expect(page.getByRole("searchbox", { name: "Søk i annonser" })).toBeVisible();
  const firstPhoto = page.getByRole("main").locator("article img").first();
  await expect(firstPhoto).toBeVisible();
  expect((await firstPhoto.boundingBox())!.y).toBeLessThan(VIEWPORT_HEIGHT * 0.5);
  expect(await cumulativeLayoutShift(page)).toBeLessThanOrEqual(0.05);
});

test("the first screen arrives with the page: / and /search make no second request for their data", async ({ page }) => {
  const apiCalls: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/api/") && url.pathname !== "/api/auth/session") apiCalls.push(url.pathname + url.search);
  });
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Nyeste annonser" })).toBeVisible();
  await page.goto("/search?free=true");
  await expect(page.getByRole("main").locator("article").first()).toBeVisible();
  expect(apiCalls).toEqual([]);
});

test("Back to /search and to home returns to where the visitor was in the list", async ({ page }) => {
  for (const path of ["/search", "/"]) {
    await page.goto(path);
    const cards = page.getByRole("main").locator("article");
    await expect(cards.first()).toBeVisible();
    // A card well down the page: scroll it into view and open it.
    const card = cards.nth(Math.min(9, (await cards.count()) - 1));
    const top = (await card.boundingBox())!.y - 150;
    await page.evaluate((y) => window.scrollTo(0, y), top);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(600);
    const scrolled = await page.evaluate(() => window.scrollY);
    // Give the page a frame to note the position (it is kept per history entry).
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const title = (await card.getByRole("link").innerText()).trim();
    await card.getByRole("link").click();
    await expect(page).toHaveURL(/\/annonse\//);
    // The listing's own heading: the address changes as the navigation starts, while the list (with
    // its own h1) stays on screen until the listing page is ready.
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`${path === "/" ? "/$" : "/search$"}`));
    await expect.poll(() => page.evaluate(() => window.scrollY), { message: `scroll position on ${path}` }).toBeGreaterThan(scrolled - 3);
    expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrolled)).toBeLessThanOrEqual(2);
  }
});

/** A seller with a finished Stripe account and three listings: a payable one, another for sale, and a free one. */
async function connectedSellerListings(browser: Browser) {
  const context = await browser.newContext();
  await signUpAndSignIn(context.request, uniqueEmail("telefon-selger"), "Siri Selger");
  const suffix = Date.now().toString(36);
  const payable = await publishListing(context.request, { title: `E2E Brannbil ${suffix}`, price: "450" });
  const other = await publishListing(context.request, { title: `E2E Gravemaskin ${suffix}`, price: "200" });
  const free = await publishListing(context.request, { title: `E2E Kosebamse ${suffix}`, price: null, is_free: true });
  // Connected after the listings exist, as Kari did: it turns payment on for the listings for sale only.
  await connectStripe(context.request);
  return { context, payable, other, free, suffix };
}

/** The site header's height and the sticky bar's box, at the top of the page. */
async function screenSplit(page: Page, bar: Locator) {
  const header = (await page.locator("header").first().boundingBox())!;
  const box = (await bar.boundingBox())!;
  return { header: header.height, bar: box.height, barBottom: box.y + box.height, listing: box.y - (header.y + header.height) };
}

test("a payable listing at 390×844: one compact buy bar at the bottom, a short header, and most of the screen for the listing", async ({
  page,
  browser,
}) => {
  const seller = await connectedSellerListings(browser);
  try {
    await page.goto(`/annonse/${seller.payable.seo_slug}`);
    const buy = page.getByRole("button", { name: "Kjøp nå med trygg betaling (Vipps/Stripe) - 450 kr" });
    await expect(buy).toBeVisible();
    const bar = page.getByTestId("listing-action-bar");
    // The bar holds the buy button alone; the other actions are under the title, on screen.
    await expect(bar.getByRole("button")).toHaveCount(1);
    await expect(page.getByRole("button", { name: "Send melding" })).toBeInViewport();

    const split = await screenSplit(page, bar);
    expect(Math.abs(split.barBottom - VIEWPORT_HEIGHT)).toBeLessThanOrEqual(1);
    expect(split.bar).toBeLessThanOrEqual(80);
    expect(split.header).toBeLessThanOrEqual(110);
    // It was about 520 px (header 157, bar 165).
    expect(split.listing).toBeGreaterThanOrEqual(640);
    await screenshotToLookAt(page, "h21-listing-payable");

    // At the end: the bar comes after "Flere annonser fra …" instead of between the seller card and it.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const more = page.getByRole("heading", { name: /^Flere annonser fra / });
    await expect(more).toBeVisible();
    const moreSection = more.locator("xpath=ancestor::section[1]");
    await expect
      .poll(async () => (await bar.boundingBox())!.y)
      .toBeGreaterThanOrEqual((await moreSection.boundingBox())!.y + (await moreSection.boundingBox())!.height - 1);
  } finally {
    await deleteAccount(seller.context.request);
    await seller.context.close();
  }
});

test("a listing the app cannot take payment for promises no 'trygg betaling': its bar says to contact the seller", async ({ page }) => {
  // The demo sellers have no Stripe account: none of their listings can be paid in the app.
  const forSale = await demoListing(page.request, DEMO_LISTINGS.forSale);
  await page.goto(`/annonse/${forSale.seo_slug}`);
  const bar = page.getByTestId("listing-action-bar");
  await expect(bar.getByText("Kontakt selgeren for å kjøpe")).toBeVisible();
  await expect(bar.getByRole("button", { name: "Send melding" })).toBeVisible();
  await expect(page.getByText(/trygg betaling/i)).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Kjøp nå/ })).toHaveCount(0);
  const split = await screenSplit(page, bar);
  expect(split.bar).toBeLessThanOrEqual(80);
  expect(split.listing).toBeGreaterThanOrEqual(640);
  await screenshotToLookAt(page, "h21-listing-not-payable");
});

test("a free listing of a seller who connected Stripe: no payment badge, no payment mode, nothing to pay", async ({ page, browser }) => {
  const seller = await connectedSellerListings(browser);
  try {
    // Cards: the listing for sale got "Sikker betaling", the free one did not.
    await page.goto(`/search?q=${seller.suffix}`);
    const cards = page.getByRole("main").locator("article");
    await expect(cards).toHaveCount(3);
    await expect(cards.filter({ hasText: "E2E Brannbil" }).getByText("Sikker betaling")).toBeVisible();
    const freeCard = cards.filter({ hasText: "E2E Kosebamse" });
    await expect(freeCard.getByText("Gi bort")).toBeVisible();
    await expect(freeCard.getByText("Sikker betaling")).toHaveCount(0);

    const api = (await (await page.request.get(`/api/listings/${seller.free.id}`)).json()) as {
      payment_enabled: boolean;
      pricing_mode: string;
    };
    expect(api).toMatchObject({ payment_enabled: false, pricing_mode: "standard" });
    await page.goto(`/annonse/${seller.free.seo_slug}`);
    await expect(page.getByRole("heading", { level: 1, name: /E2E Kosebamse/ })).toBeVisible();
    await expect(page.getByText(/trygg betaling/i)).toHaveCount(0);
    // "Sikker betaling" only on the cards of the seller's listings for sale, under "Flere annonser fra …".
    const more = page.getByRole("region", { name: /^Flere annonser fra / });
    await expect(more.getByText("Sikker betaling")).toHaveCount(2);
    await expect(page.getByText("Sikker betaling")).toHaveCount(2);
    const bar = page.getByTestId("listing-action-bar");
    await expect(bar).toBeVisible();
    expect((await screenSplit(page, bar)).bar).toBeLessThanOrEqual(80);
    await screenshotToLookAt(page, "h21-listing-free");
  } finally {
    await deleteAccount(seller.context.request);
    await seller.context.close();
  }
});

test("a visitor's pages log no console errors (the session check is a normal answer)", async ({ page }) => {
  const problems: string[] = [];
  const listen = (message: ConsoleMessage) => {
    if (message.type() === "error") problems.push(`${page.url()}: ${message.text()}`);
  };
  page.on("console", listen);
  const sessionStatuses: number[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname === "/api/auth/session") sessionStatuses.push(response.status());
  });
  const first = await demoListing(page.request, DEMO_LISTINGS.free);
  for (const path of ["/", "/search", `/annonse/${first.seo_slug}`, `/listing/${first.id}`, "/auth", "/om-oss"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  }
  expect(problems).toEqual([]);
  expect(sessionStatuses.length).toBeGreaterThan(0);
  expect(sessionStatuses.every((status) => status === 200)).toBe(true);
});

test("the create wizard: Back goes one step back, and a reload offers the draft with its text and photo", async ({ page }) => {
  const signIn = await page.request.post("/api/auth/signin", { data: { email: "sofie@lekebytte.test", password: "lekebytte123" } });
  expect(signIn.status()).toBe(200);
  await page.goto("/create-listing");
  await expect(page.getByText("Steg 1 av 4")).toBeVisible();
  const png = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAFklEQVR4nGP4z8DwHwkxIHNQOAxIHABl3R3jTW+5tgAAAABJRU5ErkJggg==",
    "base64",
  );
  await page.getByLabel("Velg bilder").setInputFiles([{ name: "kloss.png", mimeType: "image/png", buffer: png }]);
  const photo = page.getByRole("img", { name: "Bilde 1: kloss.png" });
  await expect(photo).toBeVisible();
  await expect(page.getByText("Laster opp...")).toHaveCount(0);
  await page.getByRole("button", { name: "Neste" }).click();
  await expect(page.getByText("Steg 2 av 4")).toBeVisible();
  await page.getByLabel("Tittel").fill("Utkast fra e2e");

  // The browser's Back: one step back, the photo still there; Forward: the title still there.
  await page.goBack();
  await expect(page.getByText("Steg 1 av 4")).toBeVisible();
  await expect(photo).toBeVisible();
  await page.goForward();
  await expect(page.getByText("Steg 2 av 4")).toBeVisible();
  await expect(page.getByLabel("Tittel")).toHaveValue("Utkast fra e2e");

  // A reload: the draft is offered and continues where it was.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Vil du fortsette på utkastet ditt?" })).toBeVisible();
  await page.getByRole("button", { name: "Fortsett der du slapp" }).click();
  await expect(page.getByText("Steg 2 av 4")).toBeVisible();
  await expect(page.getByLabel("Tittel")).toHaveValue("Utkast fra e2e");

  // Leaving and coming back: offered again; discarding deletes the uploaded photo.
  await page.goto("/");
  await page.goto("/create-listing");
  const deleted = page.waitForResponse((r) => r.request().method() === "DELETE" && new URL(r.url()).pathname.startsWith("/api/images/"));
  await page.getByRole("button", { name: "Forkast utkastet" }).click();
  expect((await deleted).status()).toBe(204);
  await expect(page.getByText("Steg 1 av 4")).toBeVisible();
  await expect(page.getByRole("img", { name: "Bilde 1: kloss.png" })).toHaveCount(0);
});
