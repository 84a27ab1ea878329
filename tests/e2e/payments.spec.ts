// Payments in Chromium through the offline payment sandbox (started by scripts/e2e.mjs): a seller
// connects Stripe on the sandbox's onboarding page; a buyer buys one listing by card on the
// sandbox's Checkout page and another with Vipps on its landing page and "app", lands on
// /payment-success and /betaling-fullfort with the right amounts; the seller sees the sales (chat
// message, sold listings, e-mails in the local outbox).
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { deleteAccount, signUpAndSignIn, uniqueEmail } from "./support/accounts";
import { publishListing } from "./support/listings";
import { connectStripe } from "./support/payments";
import { expectAccessible, openSecondBrowser } from "./support/second-browser";
import { screenshotToLookAt } from "./support/screenshots";

/** The sale's system message, as the chat shows it to both sides. */
function saleMessage(title: string, amount: string, method: string): string {
  return `«${title}» er solgt til Kari Kjøper for ${amount} (betalt med ${method} i Lekebytte). Betalingen er bekreftet. Avtal henting eller levering her i samtalen.`;
}

async function buy(page: Page, slug: string, price: string, method: "card" | "vipps") {
  await page.goto(`/annonse/${slug}`);
  await page.getByRole("button", { name: `Kjøp nå med trygg betaling (Vipps/Stripe) - ${price}` }).click();
  const dialog = page.getByRole("dialog", { name: "Velg betalingsmåte" });
  await expect(dialog.getByRole("radio", { name: /Kort, Apple Pay eller Google Pay/ })).toBeChecked();
  if (method === "vipps") await dialog.getByText("Vipps", { exact: true }).click();
  await expectAccessible(page);
  await dialog.getByRole("button", { name: /^Gå til betaling/ }).click();
}

test("a seller connects Stripe; a buyer pays by card and by Vipps in the sandbox; the seller sees both sales", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const suffix = Date.now().toString(36);
  const cardTitle = `E2E Sparkesykkel ${suffix}`;
  const vippsTitle = `E2E Dukkevogn ${suffix}`;

  // The seller (a second context, checked with axe explicitly): connect Stripe on the sandbox's onboarding page.
  const { context: sellerContext, page: sellerPage, policyReports } = await openSecondBrowser(browser);
  const sellerEmail = uniqueEmail("pay-selger");
  await signUpAndSignIn(sellerPage.request, sellerEmail, "Siri Selger");
  try {
    await sellerPage.goto("/profile");
    await sellerPage.getByRole("button", { name: "Koble til Stripe" }).click();
    await sellerPage.waitForURL(/\/connect\/onboarding\//);
    await expectAccessible(sellerPage);
    await sellerPage.getByLabel("Fornavn").fill("Siri");
    await sellerPage.getByLabel("Etternavn").fill("Selger");
    await sellerPage.getByLabel("Kontonummer for utbetaling").fill("1234 56 78903");
    await sellerPage.getByRole("button", { name: "Send inn og fortsett" }).click();
    await sellerPage.waitForURL(/\/profile\?stripe=return/);
    await expect(sellerPage.getByText("Utbetalinger er aktivert")).toBeVisible();
    await expect(sellerPage.getByRole("button", { name: /Åpne Stripe-dashbord/ })).toBeVisible();
    await expectAccessible(sellerPage);

    const toy = { category: "ute-lek", age_range: "6-8 år", description: "Pent brukt." };
    const cardListing = await publishListing(sellerPage.request, { ...toy, title: cardTitle, price: "250" });
    const vippsListing = await publishListing(sellerPage.request, { ...toy, title: vippsTitle, price: "399" });
    expect(cardListing).toMatchObject({ payment_enabled: true, pricing_mode: "marketplace" });

    // The buyer (the fixture's page: axe runs on every page it visits).
    const buyerEmail = uniqueEmail("pay-kjoper");
    await signUpAndSignIn(page.request, buyerEmail, "Kari Kjøper");
    const chatLog = page.getByRole("log", { name: "Meldinger" });

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
    // "Kontakt selger": the conversation the sale opened, with its message, in the real chat page.
    await page.getByRole("button", { name: "Kontakt selger" }).click();
    await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { level: 1, name: cardTitle })).toBeVisible();
    await expect(chatLog.getByText(saleMessage(cardTitle, "250,00 kr", "kort"))).toBeVisible();

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
    const vippsSession = new URL(page.url()).searchParams.get("session_id")!;
    await page.getByRole("button", { name: "Kontakt selger" }).click();
    await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
    await expect(chatLog.getByText(saleMessage(vippsTitle, "399,00 kr", "Vipps"))).toBeVisible();
    await page.goto(`/betaling-fullfort?session_id=${encodeURIComponent(vippsSession)}`);
    await expect(page.getByRole("heading", { level: 1, name: "Betalingsdetaljer" })).toBeVisible();
    await expect(page.getByText("399,00 kr", { exact: true })).toBeVisible();

    // The buyer's purchases on the profile.
    await page.goto("/profile");
    await expect(page.getByRole("tab", { name: "Mine kjøp (2)" })).toBeVisible();

    // The buyer's receipts, one per order, however many ways each was settled (decision 117).
    await page.goto(`/dev/mail?to=${encodeURIComponent(buyerEmail)}`);
    for (const title of [cardTitle, vippsTitle])
      await expect(page.getByRole("heading", { name: `Kvittering for «${title}»` })).toHaveCount(1);
    await expect(page.getByText("Betalt med: Kort")).toBeVisible();
    await expect(page.getByText("Betalt med: Vipps")).toBeVisible();
    await screenshotToLookAt(page, "e2e-payments-receipts", { fullPage: true });

    // The seller: both sales on the profile, the listings sold, the chat messages, the e-mails.
    await sellerPage.goto("/profile");
    await sellerPage.getByRole("tab", { name: "Mine salg (2)" }).click();
    const sales = sellerPage.getByRole("tabpanel", { name: "Mine salg (2)" });
    await expect(sales.getByText(cardTitle)).toBeVisible();
    await expect(sales.getByText(vippsTitle)).toBeVisible();
    await expect(sales.getByText("Kjøper: Kari Kjøper")).toHaveCount(2);
    await expectAccessible(sellerPage);

    for (const listing of [cardListing, vippsListing]) {
      await sellerPage.goto(`/annonse/${listing.seo_slug}`);
      await expect(sellerPage.getByText("Solgt", { exact: true }).first()).toBeVisible();
      await expect(sellerPage.getByRole("button", { name: /^Kjøp nå/ })).toHaveCount(0);
    }

    // The sale messages in the seller's inbox and chat pages.
    for (const [title, text] of [
      [cardTitle, saleMessage(cardTitle, "250,00 kr", "kort")],
      [vippsTitle, saleMessage(vippsTitle, "399,00 kr", "Vipps")],
    ]) {
      await sellerPage.goto("/messages");
      await sellerPage.getByRole("link", { name: new RegExp(title) }).click();
      await sellerPage.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
      await expect(sellerPage.getByRole("log", { name: "Meldinger" }).getByText(text)).toBeVisible();
    }
    await expectAccessible(sellerPage);

    await sellerPage.goto(`/dev/mail?to=${encodeURIComponent(sellerEmail)}`);
    await expect(sellerPage.getByRole("heading", { name: `Du har solgt «${cardTitle}»` })).toBeVisible();
    await expect(sellerPage.getByRole("heading", { name: `Du har solgt «${vippsTitle}»` })).toBeVisible();
    expect(policyReports).toEqual([]);
  } finally {
    await sellerContext.close();
  }
});

test("cancelling on Stripe's page and in Vipps is no error: 'Betalingen ble avbrutt' and the way back to the listing", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const seller = await browser.newContext();
  await signUpAndSignIn(seller.request, uniqueEmail("avbrutt-selger"), "Siri Selger");
  try {
    const title = `E2E Lekekjøkken ${Date.now().toString(36)}`;
    const listing = await publishListing(seller.request, { title, price: "450" });
    await connectStripe(seller.request);
    await signUpAndSignIn(page.request, uniqueEmail("avbrutt-kjoper"), "Kari Kjøper");

    // Stripe: the Checkout page's own way back (its cancel_url).
    await buy(page, listing.seo_slug, "450 kr", "card");
    await page.waitForURL(/\/c\/pay\/cs_test_/);
    await page.getByRole("link", { name: "Avbryt og gå tilbake til Lekebytte" }).click();
    await page.waitForURL(/\/payment-success\?cancelled=1/);
    await expect(page.getByRole("heading", { level: 1, name: "Betalingen ble avbrutt" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Betalingsfeil" })).toHaveCount(0);
    await expect(page.getByText("Kontakt support", { exact: false })).toHaveCount(0);
    await page.getByRole("link", { name: "Tilbake til annonsen" }).click();
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

    // Vipps: "Avbryt" in the app returns with the payment ABORTED.
    await buy(page, listing.seo_slug, "450 kr", "vipps");
    await page.waitForURL(/\/vipps\/landing\?token=/);
    await page.getByLabel("Mobilnummer").fill("912 34 567");
    await page.getByRole("button", { name: "Neste" }).click();
    await page.waitForURL(/\/vipps\/app\?token=/);
    await page.getByRole("button", { name: "Avbryt" }).click();
    await page.waitForURL(/\/payment-success\?session_id=lb-/);
    await expect(page.getByRole("heading", { level: 1, name: "Betalingen ble avbrutt" })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText("Kontakt support", { exact: false })).toHaveCount(0);
    await screenshotToLookAt(page, "h21-payment-cancelled");
    await page.getByRole("link", { name: "Tilbake til annonsen" }).click();
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    // Nothing was bought: the listing is still for sale.
    await expect(page.getByRole("button", { name: "Kjøp nå med trygg betaling (Vipps/Stripe) - 450 kr" })).toBeVisible();
  } finally {
    await deleteAccount(seller.request);
    await seller.close();
  }
});
