// What a new user meets on a 390 px phone (the default viewport of these specs): listings in the
// first screen, nothing that jumps while the page loads, one search box on /search, scroll
// positions kept on Back, the listing's action bar at the bottom of the screen, and no console
// errors for a visitor.
import type { ConsoleMessage, Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const VIEWPORT_HEIGHT = 844;

/** The demo data's newest listings (what the home page shows first). */
async function newest(page: Page): Promise<{ id: string; seo_slug: string; is_free: boolean }[]> {
  const home = (await (await page.request.get("/api/home")).json()) as { newest: { id: string; seo_slug: string; is_free: boolean }[] };
  return home.newest;
}

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
    await card.getByRole("link").click();
    await expect(page).toHaveURL(/\/annonse\//);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`${path === "/" ? "/$" : "/search$"}`));
    await expect.poll(() => page.evaluate(() => window.scrollY), { message: `scroll position on ${path}` }).toBeGreaterThan(scrolled - 3);
    expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrolled)).toBeLessThanOrEqual(2);
  }
});

test("the listing's action bar sticks to the bottom of the screen and ends the page after the seller's other listings", async ({ page }) => {
  const forSale = (await newest(page)).find((l) => !l.is_free)!;
  await page.goto(`/annonse/${forSale.seo_slug}`);
  const buy = page.getByRole("button", { name: /^Kjøp nå med trygg betaling \(Vipps\/Stripe\) - .+ kr$/ });
  await expect(buy).toBeVisible();
  const bar = buy.locator("xpath=ancestor::div[contains(@class,'sticky')][1]");

  // At the top of the page: the bar's bottom is the screen's bottom.
  const atTop = (await bar.boundingBox())!;
  expect(Math.abs(atTop.y + atTop.height - VIEWPORT_HEIGHT)).toBeLessThanOrEqual(1);
  // The spec's full label shows on screen and wraps to at most two lines on a phone.
  await expect(buy).toHaveText(/^Kjøp nå med trygg betaling \(Vipps\/Stripe\) - .+ kr$/);
  expect((await buy.boundingBox())!.height).toBeLessThanOrEqual(76);

  // At the end: the bar comes after "Flere annonser fra …" instead of between the seller card and it.
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  const more = page.getByRole("heading", { name: /^Flere annonser fra / });
  await expect(more).toBeVisible();
  const moreSection = more.locator("xpath=ancestor::section[1]");
  await expect.poll(async () => (await bar.boundingBox())!.y).toBeGreaterThanOrEqual((await moreSection.boundingBox())!.y + (await moreSection.boundingBox())!.height - 1);
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
  const [first] = await newest(page);
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
