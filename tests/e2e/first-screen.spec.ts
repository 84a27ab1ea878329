// The first screen rendered at the edge (decision 103): the five pages visitors open directly arrive
// with the listings inside #root, and the browser takes that HTML over (hydration) without a single
// console error or warning, a React hydration report included; after that the page is the SPA.
import type { ConsoleMessage } from "@playwright/test";
import { expect, test } from "./fixtures";
import { DEMO_LISTINGS, demoListing } from "./support/demo";
import { rootOf } from "../factories/page-html";

/** #root's content as the page arrives, before any JavaScript. */
function rootHtml(html: string): string {
  const root = rootOf(html);
  expect(root, "the page has #root").not.toBeNull();
  return root!.content;
}

test("the five edge-rendered pages show their listings before JavaScript and hydrate without a console report", async ({
  page,
  request,
}) => {
  const listing = await demoListing(request, DEMO_LISTINGS.forSale);
  const routes = [
    { path: "/", shows: listing.title },
    { path: "/search?q=sparkesykkel", shows: listing.title },
    { path: `/annonse/${listing.seo_slug}`, shows: listing.title },
    { path: `/listing/${listing.id}`, shows: listing.title },
    { path: `/bruker/${listing.user_id}`, shows: listing.title },
  ];

  const reports: string[] = [];
  const record = (message: ConsoleMessage) => {
    if (message.type() === "error" || message.type() === "warning") reports.push(`${page.url()}: [${message.type()}] ${message.text()}`);
  };
  page.on("console", record);
  page.on("pageerror", (error) => reports.push(`${page.url()}: [pageerror] ${error.message}`));

  for (const route of routes) {
    // What `curl` gets: the titles inside #root.
    const res = await request.get(route.path, { headers: { Accept: "text/html" } });
    expect(res.status(), route.path).toBe(200);
    expect(rootHtml(await res.text()), route.path).toContain(route.shows.replace(/&/g, "&amp;"));

    await page.goto(route.path);
    await expect(page.getByText(route.shows).first()).toBeVisible();
  }
  expect(reports, "no console error or warning, no hydration report").toEqual([]);

  // Hydrated: the links are the SPA's (a client-side navigation keeps the page, no reload).
  await page.goto("/");
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  await page.getByRole("navigation", { name: "Snarveier" }).getByRole("link", { name: "Gi bort" }).click();
  await expect(page).toHaveURL(/\/search\?free=true$/);
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
});

/** How the app loader started the app's code (web/app-loader.js keeps it on the script). */
const loaderStart = (page: import("@playwright/test").Page) =>
  page.evaluate(() => document.getElementById("app-loader")?.dataset.started ?? null);

test("a returning visitor's page without edge HTML asks for its code at once; an edge-rendered page after its first paint", async ({
  page,
  request,
}) => {
  const listing = await demoListing(request, DEMO_LISTINGS.forSale);
  // The fixture's visitor has answered the consent question: the banner is hidden, so a page whose
  // #root is empty paints nothing until its code has run. Waiting for a paint there waited for the
  // loader's 1.5 s timer on every such page.
  for (const [path, heading] of [
    ["/om-oss", "Om oss"],
    ["/finnes-ikke", "404 - Siden finnes ikke"],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
    expect(await loaderStart(page), path).toBe("at-once");
  }
  await page.goto(`/annonse/${listing.seo_slug}`);
  await expect(page.getByRole("heading", { name: listing.title, level: 1 })).toBeVisible();
  await expect.poll(() => loaderStart(page)).toBe("after-paint");
});

test.describe("a first visit (the consent banner shows)", () => {
  test.use({ analyticsConsent: null });

  test("the page paints from its HTML before any of the app's JavaScript is asked for, and the app still starts (decision 112)", async ({
    page,
    request,
  }) => {
    const listing = await demoListing(request, DEMO_LISTINGS.forSale);
    // Edge-rendered pages, a client-rendered one (its banner and header paint first) and a signed-out gate.
    for (const path of ["/", `/annonse/${listing.seo_slug}`, "/auth"]) {
      await page.goto(path);
      const timing = await page.evaluate(() => {
        const paint = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null;
        const scripts = performance
          .getEntriesByType("resource")
          .filter((e) => new URL(e.name).pathname.endsWith(".js"))
          .map((e) => e.startTime);
        return { paint, firstScript: scripts.length ? Math.min(...scripts) : null };
      });
      expect(timing.paint, `${path}: a first contentful paint`).not.toBeNull();
      expect(timing.firstScript, `${path}: the app's code was loaded`).not.toBeNull();
      expect(timing.firstScript!, `${path}: no script asked for before the first paint`).toBeGreaterThanOrEqual(timing.paint!);
      expect(await loaderStart(page), path).toBe("after-paint");
    }
    // The app runs: the consent banner's buttons (bound by the app's code) answer.
    await page.getByRole("button", { name: "Bare nødvendige" }).click();
    await expect(page.getByTestId("consent-banner")).toBeHidden();
  });
});

/**
 * Runs in the page from its start: every Error made, and every request the page's scripts make with
 * whether a module's top level is on its stack. A browser with DevTools attached (Lighthouse among
 * them) records where each error and each request was made, and to place a frame of a module's top
 * level it parses that whole file again (decision 162).
 */
function recordStartStacks() {
  const OriginalError = Error;
  const record = { errors: [] as string[], requests: [] as string[], fromTopLevel: [] as string[] };
  (window as unknown as { __start: typeof record }).__start = record;
  window.Error = new Proxy(OriginalError, {
    apply: (target, self, args) => {
      record.errors.push(String(args[0]));
      return Reflect.apply(target, self, args);
    },
    construct: (target, args, newTarget) => {
      record.errors.push(String(args[0]));
      return Reflect.construct(target, args, newTarget);
    },
  });
  type Site = { getFileName(): string | null; getEnclosingLineNumber(): number; getEnclosingColumnNumber(): number };
  const fetch = window.fetch;
  window.fetch = function (this: unknown, ...args: Parameters<typeof fetch>) {
    const url = String(args[0] instanceof Request ? args[0].url : args[0]);
    const [prepare, limit] = [OriginalError.prepareStackTrace, OriginalError.stackTraceLimit];
    OriginalError.prepareStackTrace = (_error, sites) => sites;
    // Every frame down to the first: a top level is at the bottom.
    OriginalError.stackTraceLimit = Number.POSITIVE_INFINITY;
    const holder: { stack?: Site[] } = {};
    OriginalError.captureStackTrace(holder);
    // The stack is formatted when first read: read while prepareStackTrace hands over the frames.
    const sites = holder.stack ?? [];
    [OriginalError.prepareStackTrace, OriginalError.stackTraceLimit] = [prepare, limit];
    record.requests.push(url);
    // A module's top level is the function that starts at the file's first character.
    for (const site of sites)
      if (
        /\/assets\/[^/]+\.js$/.test(site.getFileName() ?? "") &&
        site.getEnclosingLineNumber() === 1 &&
        site.getEnclosingColumnNumber() === 1
      )
        record.fromTopLevel.push(`${url} from ${site.getFileName()}`);
    return fetch.apply(this, args);
  } as typeof fetch;
}

test("the app starts without making an Error and without a request from a module's top level", async ({ page }) => {
  await page.addInitScript(recordStartStacks);
  const start = () => page.evaluate(() => (window as unknown as { __start: Record<string, string[]> }).__start);
  // An edge-rendered page (hydrated) and one the browser renders itself.
  for (const [path, heading] of [
    ["/", "Kjøp, selg, gi bort og bytt brukte leker"],
    ["/om-oss", "Om oss"],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
    // The session is the first thing the app asks for as it starts.
    await expect
      .poll(async () => (await start()).requests.some((url) => url.includes("/api/auth/session")), { timeout: 20_000 })
      .toBe(true);
    const { errors, fromTopLevel } = await start();
    expect(errors, `${path}: Errors made as the app started (react-dom's markers among them)`).toEqual([]);
    expect(fromTopLevel, `${path}: requests made from a module's top level`).toEqual([]);
  }
});
