// "Send med posten" in two browsers at 390 px, through the offline sandbox (decisions 145, 150): a
// buyer pays for a toy that "Kan sendes" with shipping to a Posten pickup point near the postal code;
// the seller's deal card shows "Sendekode: {kode}" and "Lever pakken innen {dato}"; the carrier's
// tester page moves the parcel to "Levert", its signed webhooks move the order; the buyer confirms
// and both see "Utbetalt til selger". And a seller who never hands the parcel in: once the deadline
// has passed the cron cancels it, the buyer is refunded toy and shipping, and the toy is for sale again.
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { signUpAndSignIn, uniqueEmail } from "./support/accounts";
import { publishListing } from "./support/listings";
import { connectStripe } from "./support/payments";
import { openSecondBrowser } from "./support/second-browser";
import { screenshotToLookAt } from "./support/screenshots";

test.use({ viewport: { width: 390, height: 844 } });

/** The deal's card in the chat. */
const card = (page: Page, title: string) => page.getByRole("article", { name: `Trygg betaling: ${title}` });

/** Siri Selger (Stripe connected, a street address on the profile) lists a small toy that can be sent. */
async function sendableListing(request: APIRequestContext, title: string) {
  await signUpAndSignIn(request, uniqueEmail("frakt-selger"), "Siri Selger");
  await connectStripe(request);
  const profile = await request.patch("/api/me/profile", {
    data: { display_name: "Siri Selger", street_address: "Storgata 1", postal_code: "0150" },
  });
  expect(profile.status(), await profile.text()).toBe(200);
  return publishListing(request, { title, price: "300", handover: ["in_person", "shipping"], parcel_size: "small" });
}

/**
 * Kari Kjøper buys with "Sending" to the nearest Posten pickup point and pays by card in the
 * sandbox; returns the sandbox's origin (its tester page lives there) and the chat's URL.
 */
async function buyWithShipping(page: Page, slug: string): Promise<{ sandbox: string; chatUrl: string }> {
  await page.goto(`/annonse/${slug}`);
  await expect(page.getByText("Hentes, Kan sendes (Liten pakke)", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Kjøp nå med trygg betaling (Vipps/Stripe) - 300 kr" }).click();
  const dialog = page.getByRole("dialog", { name: "Velg betalingsmåte" });
  await dialog.getByRole("group", { name: "Hvordan vil du få leken?" }).getByText("Sending", { exact: true }).click();
  await dialog.getByText("Posten · Hentested", { exact: true }).click();
  await dialog.getByLabel("Navn").fill("Kari Kjøper");
  await dialog.getByLabel("Gateadresse").fill("Bryggen 2");
  await dialog.getByLabel("Postnummer").fill("5003");
  await dialog.getByLabel("Mobilnummer").fill("987 65 432");
  const points = dialog.getByRole("group", { name: "Velg hentested" });
  await expect(points.getByRole("radio").first()).toBeChecked();
  await expect(dialog.getByText("Totalt")).toBeVisible();
  await screenshotToLookAt(page, "checkout-sending");
  await dialog.getByRole("button", { name: "Gå til betaling – 379 kr" }).click();
  await page.waitForURL(/\/c\/pay\/cs_test_/);
  const sandbox = new URL(page.url()).origin;
  await page.getByLabel("E-post").fill("kari@test.no");
  await page.getByLabel("Kortnummer").fill("4242 4242 4242 4242");
  await page.getByLabel("Utløpsdato").fill("12 / 40");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: /^Betal / }).click();
  await page.waitForURL(/\/payment-success\?session_id=/);
  await expect(page.getByRole("heading", { name: "Betaling fullført!" })).toBeVisible({ timeout: 20_000 });
  await page.getByRole("link", { name: "Se betalingsdetaljer" }).click();
  await page.getByRole("button", { name: "Kontakt selger" }).click();
  await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
  return { sandbox, chatUrl: page.url() };
}

/** The seller's code, once the shipment-booking queue has booked the parcel with the sandbox's Posten. */
async function sellerSeesCode(seller: Page, chatUrl: string, title: string): Promise<string> {
  await seller.goto(chatUrl);
  const parcel = card(seller, title).getByRole("region", { name: "Frakt" });
  await expect(parcel.getByText(/^Sendekode:/)).toBeVisible({ timeout: 20_000 });
  await expect(parcel.getByText(/^Lever pakken innen \d{1,2}\. \p{L}+ \d{4}$/u)).toBeVisible();
  const code = (await parcel.locator("strong").first().textContent())!.trim();
  expect(code).toMatch(/^BRING-\d{4}-\d{4}$/);
  return code;
}

test("sent to a pickup point: the seller's code, the tester moves it to 'Levert', the buyer confirms → 'Utbetalt til selger'", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const title = `E2E Brio togbane ${Date.now().toString(36)}`;
  const seller = await openSecondBrowser(browser);
  await seller.page.setViewportSize({ width: 390, height: 844 });
  try {
    const listing = await sendableListing(seller.page.request, title);
    await signUpAndSignIn(page.request, uniqueEmail("frakt-kjoper"), "Kari Kjøper");
    const { sandbox, chatUrl } = await buyWithShipping(page, listing.seo_slug);

    const code = await sellerSeesCode(seller.page, chatUrl, title);
    await screenshotToLookAt(seller.page, "chat-seller-sendekode");
    // The buyer's card has the parcel's number, never the seller's code.
    await expect(card(page, title).getByText(/^Sporingsnummer:/)).toBeVisible({ timeout: 15_000 });
    await expect(card(page, title).getByText(code)).toHaveCount(0);

    // The carrier's tester moves the parcel on; its signed webhooks reach the app. The seller's own
    // tab goes there and back: a second tab's close() once hung a loaded machine's run for minutes.
    await seller.page.goto(`${sandbox}/frakt/tester`);
    const parcel = seller.page.locator("section.parcel", { hasText: code });
    await parcel.getByRole("button", { name: "Levert", exact: true }).click();
    await expect(seller.page.getByText(/^Levert: \d+ hendelse\(r\) sendt\.$/)).toBeVisible();
    await seller.page.goto(chatUrl);

    await expect(card(page, title).getByText("Pakken er levert", { exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole("log", { name: "Meldinger" }).getByText(/^Pakken er klar til henting hos /)).toBeVisible();
    await screenshotToLookAt(page, "chat-buyer-delivered");
    await card(page, title).getByRole("button", { name: "Jeg har fått varen" }).click();
    await card(page, title).getByRole("button", { name: "Ja" }).click();
    await expect(card(page, title).getByText("Utbetalt til selger", { exact: true })).toHaveCount(1);
    await expect(card(seller.page, title).getByText("Utbetalt til selger", { exact: true })).toHaveCount(1, { timeout: 15_000 });
    await screenshotToLookAt(seller.page, "chat-seller-released-sent");
  } finally {
    await seller.context.close();
  }
});

test("never handed in: past the deadline the purchase is cancelled, toy and shipping refunded, the toy for sale again", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const title = `E2E Playmobil ${Date.now().toString(36)}`;
  const seller = await openSecondBrowser(browser);
  await seller.page.setViewportSize({ width: 390, height: 844 });
  try {
    const listing = await sendableListing(seller.page.request, title);
    await signUpAndSignIn(page.request, uniqueEmail("frakt-kjoper"), "Kari Kjøper");
    const { chatUrl } = await buyWithShipping(page, listing.seo_slug);
    await sellerSeesCode(seller.page, chatUrl, title);

    // The seller does nothing. The cron's shipping step runs as if the deadline had passed.
    const orders = await page.request.get(`/api/payments/orders?conversation_id=${chatUrl.split("/").pop()}`);
    const [order] = (await orders.json()) as Array<{ shipment: { drop_off_deadline: string } }>;
    const after = new Date(Date.parse(order.shipment.drop_off_deadline) + 60_000).toISOString();
    const cron = await page.request.post("/api/dev/cron/shipments", { data: { at: after } });
    expect(cron.status(), await cron.text()).toBe(200);

    await page.goto(chatUrl);
    await expect(
      page.getByRole("log", { name: "Meldinger" }).getByText(/^Pakken ble ikke levert inn innen fristen\. Kjøpet er avbrutt/),
    ).toBeVisible({ timeout: 15_000 });
    await expect(card(page, title).getByText("Kjøpet er avbrutt", { exact: true })).toBeVisible();
    await screenshotToLookAt(page, "chat-buyer-not-handed-in");
    const refunds = (await (await page.request.get(`/api/payments/orders/${(await orders.json())[0].order_id}`)).json()) as {
      state: string;
      money_moved: boolean;
      amount: number;
    };
    expect(refunds).toMatchObject({ state: "cancelled", money_moved: true, amount: 37_900 });
    await page.goto(`/annonse/${listing.seo_slug}`);
    await expect(page.getByRole("button", { name: "Kjøp nå med trygg betaling (Vipps/Stripe) - 300 kr" })).toBeVisible();
  } finally {
    await seller.context.close();
  }
});
