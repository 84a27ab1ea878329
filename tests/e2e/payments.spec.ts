// Payments in Chromium through the offline payment sandbox (started by scripts/e2e.mjs): a seller
// connects Stripe on the sandbox's onboarding page; a buyer buys one listing by card on the
// sandbox's Checkout page and another with Vipps on its landing page and "app", lands on
// /payment-success and /betaling-fullfort with the right amounts; the seller sees the sales (chat
// message, sold listings, e-mails in the local outbox).
import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import jpeg from "jpeg-js";
import { AXE_TAGS, expect, test } from "./fixtures";

const PASSWORD = "hemmelig-e2e-betaling";

function uniqueEmail(role: string): string {
  return `e2e-pay-${role}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** Sign up and confirm through the local outbox with the page's own cookie jar (so the page is signed in). */
async function signUpAndSignIn(request: APIRequestContext, email: string, name: string): Promise<void> {
  const signUp = await request.post("/api/auth/signup", { data: { display_name: name, email, password: PASSWORD } });
  expect(signUp.status(), await signUp.text()).toBe(201);
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const mails = (await (await request.get(`/api/dev/mail.json?to=${encodeURIComponent(email)}`)).json()) as { text_body: string }[];
        code = mails.map((m) => /\/auth\/callback\?code=([^\s"<>&]+)/.exec(m.text_body)?.[1]).find(Boolean);
        return code;
      },
      { message: "a confirmation mail", timeout: 10_000 },
    )
    .toBeTruthy();
  const callback = await request.post("/api/auth/callback", { data: { code: decodeURIComponent(code!) } });
  expect(callback.status(), await callback.text()).toBe(200);
}

function photo(): Buffer {
  const width = 320;
  const height = 240;
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < data.length; i += 4) {
    data[i] = 60;
    data[i + 1] = 140 + ((i / 4) % width) / 4;
    data[i + 2] = 200;
    data[i + 3] = 255;
  }
  return jpeg.encode({ data, width, height }, 85).data;
}

/** A listing through the API, as the wizard would send it. */
async function publish(request: APIRequestContext, title: string, price: number): Promise<{ id: string; seo_slug: string; payment_enabled: boolean; pricing_mode: string }> {
  const upload = await request.post("/api/images", { data: photo(), headers: { "Content-Type": "image/jpeg" } });
  expect(upload.status(), await upload.text()).toBe(201);
  const { key } = (await upload.json()) as { key: string };
  const res = await request.post("/api/listings", {
    data: { title, description: "Pent brukt.", category: "ute-lek", age_range: "6-8 år", condition_rating: 4, price: String(price), is_free: false, is_trade_offer: false, postal_code: "0150", images: [key] },
  });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

async function newUserPage(browser: Browser, baseURL: string | undefined, role: string, name: string): Promise<{ page: Page; email: string }> {
  const context = await browser.newContext({ baseURL, locale: "nb-NO", timezoneId: "Europe/Oslo", viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const email = uniqueEmail(role);
  await signUpAndSignIn(page.request, email, name);
  return { page, email };
}

/** axe (WCAG 2.1 A/AA) on a page the fixture does not watch (a second browser context, an open dialog). */
async function expectAccessible(p: Page, what: string): Promise<void> {
  await p.waitForLoadState("networkidle");
  const results = await new AxeBuilder({ page: p }).setLegacyMode(true).withTags(AXE_TAGS).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`), `axe on ${what}`).toEqual([]);
}

async function buy(page: Page, slug: string, price: string, method: "card" | "vipps") {
  await page.goto(`/annonse/${slug}`);
  await page.getByRole("button", { name: `Kjøp nå med trygg betaling (Vipps/Stripe) - ${price}` }).click();
  const dialog = page.getByRole("dialog", { name: "Velg betalingsmåte" });
  await expect(dialog.getByRole("radio", { name: /Kort, Apple Pay eller Google Pay/ })).toBeChecked();
  if (method === "vipps") await dialog.getByText("Vipps", { exact: true }).click();
  await expectAccessible(page, "the payment chooser");
  await dialog.getByRole("button", { name: /^Gå til betaling/ }).click();
}

test("a seller connects Stripe; a buyer pays by card and by Vipps in the sandbox; the seller sees both sales", async ({ page, browser, baseURL }) => {
  test.setTimeout(150_000);
  const suffix = Date.now().toString(36);
  const cardTitle = `E2E Sparkesykkel ${suffix}`;
  const vippsTitle = `E2E Dukkevogn ${suffix}`;

  // The seller (a second context, checked with axe explicitly): connect Stripe on the sandbox's onboarding page.
  const seller = await newUserPage(browser, baseURL, "selger", "Siri Selger");
  const sellerPage = seller.page;
  try {
    await sellerPage.goto("/profile");
    await sellerPage.getByRole("button", { name: "Koble til Stripe" }).click();
    await sellerPage.waitForURL(/\/connect\/onboarding\//);
    await expectAccessible(sellerPage, "the sandbox's onboarding page");
    await sellerPage.getByLabel("Fornavn").fill("Siri");
    await sellerPage.getByLabel("Etternavn").fill("Selger");
    await sellerPage.getByLabel("Kontonummer for utbetaling").fill("1234 56 78903");
    await sellerPage.getByRole("button", { name: "Send inn og fortsett" }).click();
    await sellerPage.waitForURL(/\/profile\?stripe=return/);
    await expect(sellerPage.getByText("Utbetalinger er aktivert")).toBeVisible();
    await expect(sellerPage.getByRole("button", { name: /Åpne Stripe-dashbord/ })).toBeVisible();
    await expectAccessible(sellerPage, "/profile with a connected account");

    const cardListing = await publish(sellerPage.request, cardTitle, 250);
    const vippsListing = await publish(sellerPage.request, vippsTitle, 399);
    expect(cardListing).toMatchObject({ payment_enabled: true, pricing_mode: "marketplace" });

    // The buyer (the fixture's page: axe runs on every page it visits).
    const buyerEmail = uniqueEmail("kjoper");
    await signUpAndSignIn(page.request, buyerEmail, "Kari Kjøper");

    // Card: the sandbox's Checkout page.
    await buy(page, cardListing.seo_slug, "250 kr", "card");
    await page.waitForURL(/\/c\/pay\/cs_test_/);
    await expect(page.getByRole("heading", { name: cardTitle })).toBeVisible();
    await page.getByLabel("E-post").fill(buyerEmail);
    await page.getByLabel("Kortnummer").fill("4242 4242 4242 4242");
    await page.getByLabel("Utløpsdato").fill("12 / 40");
    await page.getByLabel("CVC").fill("123");
    await page.getByRole("button", { name: /^Betal 250,00 kr$/ }).click();
    await page.waitForURL(/\/payment-success\?session_id=cs_test_\w+&payment_id=/);
    await expect(page.getByRole("heading", { name: "Betaling fullført!" })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText("250,00 kr", { exact: true })).toBeVisible();
    await page.getByRole("link", { name: "Se betalingsdetaljer" }).click();
    await page.waitForURL(/\/betaling-fullfort\?session_id=cs_test_/);
    await expect(page.getByRole("heading", { level: 1, name: "Betalingsdetaljer" })).toBeVisible();
    await expect(page.getByText("250,00 kr", { exact: true })).toBeVisible();
    await expect(page.getByText("Betalt", { exact: true })).toBeVisible();
    await expect(page.getByText("Siri Selger")).toBeVisible();
    await expect(page.getByText("Selger har mottatt beskjed om salget")).toBeVisible();

    // Vipps: the landing page (phone number) and "the app" (approve).
    await buy(page, vippsListing.seo_slug, "399 kr", "vipps");
    await page.waitForURL(/\/vipps\/landing\?token=/);
    await page.getByLabel("Mobilnummer").fill("912 34 567");
    await page.getByRole("button", { name: "Neste" }).click();
    await page.waitForURL(/\/vipps\/app\?token=/);
    await expect(page.getByText("399,00 kr")).toBeVisible();
    await page.getByRole("button", { name: "Godkjenn" }).click();
    await page.waitForURL(/\/payment-success\?session_id=lb-/);
    await expect(page.getByRole("heading", { name: "Betaling fullført!" })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText("399,00 kr", { exact: true })).toBeVisible();
    await page.getByRole("link", { name: "Se betalingsdetaljer" }).click();
    await page.waitForURL(/\/betaling-fullfort\?session_id=lb-/);
    await expect(page.getByText("399,00 kr", { exact: true })).toBeVisible();

    // The buyer's purchases on the profile.
    await page.goto("/profile");
    await expect(page.getByRole("tab", { name: "Mine kjøp (2)" })).toBeVisible();

    // The seller: both sales on the profile, the listings sold, the chat messages, the e-mails.
    await sellerPage.goto("/profile");
    await sellerPage.getByRole("tab", { name: "Mine salg (2)" }).click();
    const sales = sellerPage.getByRole("tabpanel", { name: "Mine salg (2)" });
    await expect(sales.getByText(cardTitle)).toBeVisible();
    await expect(sales.getByText(vippsTitle)).toBeVisible();
    await expect(sales.getByText("Kjøper: Kari Kjøper")).toHaveCount(2);
    await expectAccessible(sellerPage, "the seller's sales");

    for (const listing of [cardListing, vippsListing]) {
      await sellerPage.goto(`/annonse/${listing.seo_slug}`);
      await expect(sellerPage.getByText("Solgt", { exact: true }).first()).toBeVisible();
      await expect(sellerPage.getByRole("button", { name: /^Kjøp nå/ })).toHaveCount(0);
    }

    // The sale's system message in the buyer–seller conversation (from the seller's own data export).
    const exported = (await (await sellerPage.request.get("/api/me/export")).json()) as { messages: { content: string }[] };
    const contents = exported.messages.map((m) => m.content);
    expect(contents).toContain(`«${cardTitle}» er solgt til Kari Kjøper for 250,00 kr (betalt med kort i Lekebytte). Betalingen er bekreftet. Avtal henting eller levering her i samtalen.`);
    expect(contents).toContain(`«${vippsTitle}» er solgt til Kari Kjøper for 399,00 kr (betalt med Vipps i Lekebytte). Betalingen er bekreftet. Avtal henting eller levering her i samtalen.`);

    await sellerPage.goto(`/dev/mail?to=${encodeURIComponent(seller.email)}`);
    await expect(sellerPage.getByRole("heading", { name: `Du har solgt «${cardTitle}»` })).toBeVisible();
    await expect(sellerPage.getByRole("heading", { name: `Du har solgt «${vippsTitle}»` })).toBeVisible();
  } finally {
    await sellerPage.context().close();
  }
});
