// Edge SEO and content pages: the Worker's listing page works without JavaScript (title, JSON-LD,
// plain HTML), unknown paths answer 404, and the newsletter and contact forms reach the API.
import { formatPrice } from "../../domain/format";
import { expect, test } from "./fixtures";
import { DEMO_LISTINGS, demoListing } from "./support/demo";

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const uniqueEmail = () => `e2e-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@eksempel.no`;

test.describe("without JavaScript", () => {
  // axe runs inside the page, which needs JavaScript: these two pages are not scanned (the
  // listing's JavaScript version is scanned by the listing specs, the 404 screen below).
  test.use({ javaScriptEnabled: false, axeScan: false });

  test("a demo listing's /annonse/{slug} has its title, JSON-LD Product and the listing as HTML", async ({ page }) => {
    const row = await demoListing(page.request, DEMO_LISTINGS.free);

    const response = await page.goto(`/annonse/${encodeURIComponent(row.seo_slug)}`);
    expect(response?.status()).toBe(200);
    // "{title} - {price or Gratis} | {place} | Lekebytte"
    const price = formatPrice(row.price, row.is_free);
    await expect(page).toHaveTitle(new RegExp(`^${escapeRegExp(row.title)} - ${escapeRegExp(price)} \\| [^|]+ \\| Lekebytte$`));

    const scripts = await page.locator('script[type="application/ld+json"]').allTextContents();
    const products = scripts
      .map((text) => JSON.parse(text) as unknown)
      .flatMap((data) => (Array.isArray(data) ? data : [data]))
      .filter(
        (data): data is Record<string, unknown> =>
          typeof data === "object" && data !== null && (data as Record<string, unknown>)["@type"] === "Product",
      );
    expect(products).toHaveLength(1);
    expect(products[0].name).toBe(row.title);
    expect(products[0].offers).toMatchObject({ priceCurrency: "NOK", itemCondition: "https://schema.org/UsedCondition" });

    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", new RegExp(`/annonse/${escapeRegExp(row.seo_slug)}$`));
    await expect(page.getByRole("heading", { level: 1, name: row.title })).toBeVisible();
  });

  test("an unknown path answers 404", async ({ page }) => {
    const response = await page.goto("/finnes-ikke");
    expect(response?.status()).toBe(404);
  });
});

test("an unknown path shows the 404 screen", async ({ page }) => {
  const response = await page.goto("/finnes-ikke");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "404 - Siden finnes ikke" })).toBeVisible();
});

test("the newsletter form on / thanks a new address and says 'Allerede påmeldt' the second time", async ({ page }) => {
  await page.goto("/");
  const email = uniqueEmail();
  const block = page.getByRole("region", { name: "Meld deg på nyhetsbrevet" });
  await block.getByLabel("E-post").fill(email);
  await block.getByRole("button", { name: "Meld meg på" }).click();
  await expect(page.getByText("Takk for påmeldingen!")).toBeVisible();
  await expect(block.getByLabel("E-post")).toHaveValue("");

  await block.getByLabel("E-post").fill(email);
  await block.getByRole("button", { name: "Meld meg på" }).click();
  await expect(page.getByText("Allerede påmeldt")).toBeVisible();
});

test("the contact form sends a message and thanks the user", async ({ page }) => {
  await page.goto("/kontakt");
  await expect(page.getByRole("heading", { level: 1, name: "Kontakt oss" })).toBeVisible();
  const form = page.getByRole("form", { name: "Send oss en melding" });
  await form.getByLabel("Navn").fill("Kari Nordmann");
  await form.getByLabel("E-post").fill(uniqueEmail());
  await form.getByLabel("Emne").fill("Spørsmål om bytte");
  await form.getByLabel("Melding").fill("Hei! Hvordan foreslår jeg et bytte?");
  const response = page.waitForResponse((r) => r.url().endsWith("/api/contact") && r.request().method() === "POST");
  await form.getByRole("button", { name: "Send melding" }).click();
  expect((await response).status()).toBe(201);
  await expect(page.getByText("Takk for din henvendelse!")).toBeVisible();
  await expect(form.getByLabel("Melding")).toHaveValue("");
});

test("the static pages answer 200 with their headings, and the footer's anchors exist", async ({ page }) => {
  for (const [path, title] of [
    ["/om-oss", "Om oss"],
    ["/kontakt", "Kontakt oss"],
    ["/personvern", "Personvern"],
  ] as const) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  }
  await page.getByRole("contentinfo").getByRole("link", { name: "Vilkår" }).click();
  await expect(page).toHaveURL(/\/personvern#vilkar$/);
  await expect(page.locator("#vilkar")).toBeInViewport();
  await page.goto("/personvern#informasjonskapsler");
  await expect(page.locator("#informasjonskapsler")).toBeInViewport();
});
