// /search (docs/product.md "Search"): filters through the bottom sheet, kept in the URL across a
// reload and restored by back/forward. Counts are compared with the API, not hard-coded.
// Other specs publish and delete listings while this one runs, so the searches here look only at
// listings of this spec's own, which carry a word of their own in the description (`word`); the
// header's quick link, which cannot carry it, is compared with the answer the page itself got.
import type { APIRequestContext, Page } from "@playwright/test";
import { axeViolations, expect, test } from "./fixtures";
import { deleteAccount, signUpAndSignIn, uniqueEmail } from "./support/accounts";
import { publishListing } from "./support/listings";
import { screenshotToLookAt } from "./support/screenshots";

/** This spec's listings: three Lego sets (two within 100–500 kr), two cars, three free toys. */
const LISTINGS = [
  { title: "Lego Duplo ferje", category: "lego", price: "150" },
  { title: "Legoklosser i bøtte", category: "lego", price: "450" },
  { title: "Lego Technic kran", category: "lego", price: "600" },
  { title: "Fjernstyrt båt", category: "biler", price: "350" },
  { title: "Liten brannbil", category: "biler", price: "80" },
  { title: "Duplo dyrehage", category: "lego", is_free: true, price: "" },
  { title: "Lego Duplo tog", category: "lego", is_free: true, price: "" },
  { title: "Dukkevogn", category: "dukker", is_free: true, price: "" },
];

let word = "";
let seller: APIRequestContext;

test.beforeAll(async ({ playwright }, testInfo) => {
  seller = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  word = `sok${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  await signUpAndSignIn(seller, uniqueEmail("search-seller"), "Siri Selger");
  await Promise.all(LISTINGS.map((listing) => publishListing(seller, { ...listing, description: `Lite brukt. ${word}` })));
});

test.afterAll(async () => {
  await deleteAccount(seller);
  await seller.dispose();
});

interface SearchResult {
  rows: { title: string; price: number | null }[];
  total: number;
}

async function apiSearch(page: Page, query: string): Promise<SearchResult> {
  const res = await page.request.get(`/api/search?${query}`);
  expect(res.ok()).toBe(true);
  return (await res.json()) as SearchResult;
}

const countText = (n: number) => (n === 1 ? "1 annonse" : `${new Intl.NumberFormat("nb-NO").format(n)} annonser`);

/** The result count line ("n annonser"). */
const resultCount = (page: Page) =>
  page
    .getByRole("main")
    .getByRole("status")
    .filter({ hasText: /\d.*annonse/ });
const cardTitles = (page: Page) => page.getByRole("main").locator("article h3").allTextContents();

async function expectResults(page: Page, query: string) {
  const expected = await apiSearch(page, query);
  await expect(resultCount(page)).toHaveText(countText(expected.total));
  await expect.poll(() => cardTitles(page)).toEqual(expected.rows.map((r) => r.title));
  return expected;
}

test("filter by category and price in the sheet; reload keeps it; back and forward restore it", async ({ page }) => {
  await page.goto(`/search?q=${word}`);
  await expect(page.getByRole("heading", { level: 1, name: "Søk" })).toBeVisible();
  await expectResults(page, `q=${word}&limit=50`);

  await page.getByRole("button", { name: /^Filter/ }).click();
  const sheet = page.getByRole("dialog", { name: "Filter" });
  await expect(sheet).toBeVisible();
  // A bottom sheet of 85% of the viewport's height.
  const box = (await sheet.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(Math.round(box.height)).toBe(Math.round(viewport.height * 0.85));
  expect(Math.round(box.y + box.height)).toBe(viewport.height);

  await sheet.getByRole("checkbox", { name: "Lego" }).check();
  await sheet.getByLabel("Fra (kr)").fill("100");
  // The upper bound by the slider's keyboard: Page Down moves ten steps of 50.
  const maxThumb = sheet.getByRole("slider", { name: "Makspris" });
  await maxThumb.focus();
  for (let i = 0; i < 19; i++) await maxThumb.press("PageDown");
  await expect(maxThumb).toHaveAttribute("aria-valuenow", "500");
  await expect(sheet.getByLabel("Til (kr)")).toHaveValue("500");

  const filtered = await apiSearch(page, `q=${word}&categories=lego&min=100&max=500&limit=50`);
  await expect(sheet.getByRole("button", { name: `Vis ${countText(filtered.total)}` })).toBeVisible();
  const violations = await axeViolations(page, { include: '[role="dialog"]' });
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
  await screenshotToLookAt(page, "search-filter-sheet");

  await sheet.getByRole("button", { name: /^Vis / }).click();
  await expect(sheet).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/search\\?q=${word}&categories=lego&min=100&max=500$`));
  const result = await expectResults(page, `q=${word}&categories=lego&min=100&max=500&limit=50`);
  // This spec's data: two Lego sets within the range, the 600 kr Technic one outside it.
  expect(result.rows.map((r) => r.title)).toEqual(expect.arrayContaining(["Lego Duplo ferje", "Legoklosser i bøtte"]));
  expect(result.rows.map((r) => r.title)).not.toContain("Lego Technic kran");
  await expect(page.getByRole("button", { name: "Fjern filter Lego" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Fjern filter 100–500 kr$/ })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Filter/ })).toHaveAccessibleName(/^Filter\s+2\s+aktive filtre$/);

  await page.reload();
  await expect(page).toHaveURL(new RegExp(`/search\\?q=${word}&categories=lego&min=100&max=500$`));
  await expectResults(page, `q=${word}&categories=lego&min=100&max=500&limit=50`);
  await expect(page.getByRole("button", { name: "Fjern filter Lego" })).toBeVisible();

  await page.getByRole("button", { name: "Fjern filter Lego" }).click();
  await expect(page).toHaveURL(new RegExp(`/search\\?q=${word}&min=100&max=500$`));
  await expectResults(page, `q=${word}&min=100&max=500&limit=50`);

  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/search\\?q=${word}&categories=lego&min=100&max=500$`));
  await expectResults(page, `q=${word}&categories=lego&min=100&max=500&limit=50`);
  await expect(page.getByRole("button", { name: "Fjern filter Lego" })).toBeVisible();

  await page.goForward();
  await expect(page).toHaveURL(new RegExp(`/search\\?q=${word}&min=100&max=500$`));
  await expectResults(page, `q=${word}&min=100&max=500&limit=50`);
  await expect(page.getByRole("button", { name: "Fjern filter Lego" })).toBeHidden();
});

test("typing searches after a pause; back brings the previous text and results", async ({ page }) => {
  await page.goto(`/search?q=${word}&free=true`);
  await expectResults(page, `q=${word}&free=true&limit=50`);
  const box = page.getByRole("searchbox", { name: "Søk i annonser" });
  await box.fill(`${word} duplo`);
  await expect(page).toHaveURL(new RegExp(`/search\\?q=${word}%20duplo&free=true$`));
  await expectResults(page, `q=${word}%20duplo&free=true&limit=50`);
  await box.fill(word);
  await box.pressSequentially(" lego duplo", { delay: 20 });
  await expect(page).toHaveURL(new RegExp(`/search\\?q=${word}%20lego%20duplo&free=true$`));

  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/search\\?q=${word}&free=true$`));
  await expect(box).toHaveValue(word);
  await expectResults(page, `q=${word}&free=true&limit=50`);
});

test("the header's quick links open search with free-only and trade-only", async ({ page }) => {
  await page.goto("/");
  // Every trade listing counts here, other specs' too: the page is compared with the answer it got
  // itself (the first page of the query its URL carries), not with a second question to the API.
  const answers: SearchResult[] = [];
  page.on("response", async (response) => {
    const url = new URL(response.url());
    const query = [...url.searchParams].map(([key, value]) => `${key}=${value}`).sort();
    if (url.pathname === "/api/search" && query.join("&") === "limit=50&offset=0&trade=true") answers.push(await response.json());
  });
  await page.getByRole("banner").getByRole("link", { name: "Åpen for bytte" }).click();
  await expect(page).toHaveURL(/\/search\?trade=true$/);
  await expect(page.getByRole("button", { name: "Fjern filter Åpen for bytte" })).toBeVisible();
  await expect.poll(() => answers.length, { message: "the page's own search" }).toBeGreaterThan(0);
  const answer = answers[answers.length - 1];
  await expect(resultCount(page)).toHaveText(countText(answer.total));
  await expect.poll(() => cardTitles(page)).toEqual(answer.rows.map((r) => r.title));
});

test("a search without matches says 'Ingen annonser funnet'", async ({ page }) => {
  await page.goto("/search?q=zqxjkvw");
  await expect(page.getByText("Ingen annonser funnet")).toBeVisible();
  await expect(resultCount(page)).toHaveText("0 annonser");
});
