// Foundation: the home page in Chromium, with the demo data `npm start` loads (docs/product.md "Home").
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const SECTIONS = ["Nyeste annonser", "Gi bort", "Åpen for bytte"] as const;
const HOME_CATEGORIES = ["Lego", "Biler", "Baby", "Puslespill", "Spill", "Dukker"] as const;

test("home shows the header, the category grid and the three listing sections", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);

  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: /Lekebytte/ })).toBeVisible();
  await expect(header.getByRole("searchbox").or(header.getByPlaceholder(/Søk/))).toBeVisible();
  await expect(header.getByRole("link", { name: "Legg ut en leke nå" })).toBeVisible();

  const main = page.getByRole("main");
  for (const label of HOME_CATEGORIES) {
    await expect(main.getByText(label, { exact: true }).first(), `category ${label}`).toBeVisible();
  }

  for (const title of SECTIONS) {
    await expect(main.getByRole("heading", { name: title, exact: true }), `section ${title}`).toBeVisible();
    const section = sectionTitled(page, title);
    const cards = section.locator('a[href^="/annonse/"], a[href^="/listing/"]');
    await expect(cards.first(), `demo listings in ${title}`).toBeVisible();
  }
  // Limits from docs/product.md "Limits and timings": 6 newest, up to 4 free, up to 4 open to trade.
  const count = (title: string) => sectionTitled(page, title).locator("article").count();
  expect(await count("Nyeste annonser")).toBeLessThanOrEqual(6);
  expect(await count("Gi bort")).toBeLessThanOrEqual(4);
  expect(await count("Åpen for bytte")).toBeLessThanOrEqual(4);
});

test("a listing card opens the listing", async ({ page }) => {
  await page.goto("/");
  const firstCard = sectionTitled(page, "Nyeste annonser").locator('a[href^="/annonse/"], a[href^="/listing/"]').first();
  const href = await firstCard.getAttribute("href");
  await firstCard.click();
  await expect(page).toHaveURL(new RegExp(`${escapeRegExp(href!)}$`));
});

/** The <section> whose heading is `title` (the heading locator inside `has` must be page-relative). */
function sectionTitled(page: Page, title: string) {
  return page
    .getByRole("main")
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: title, exact: true }) });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
