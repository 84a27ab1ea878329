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
