// Trygg betaling in two browsers (decision 105), through the offline payment sandbox: a
// card purchase whose money is held until the seller's "Overlevert til kjøper" and the buyer's
// "Jeg har fått varen" release it ("Utbetalt til selger" on both sides, once); a Vipps purchase whose
// buyer reports a problem, which the demo moderator refunds in /moderation after one more question
// ("Pengene er betalt tilbake"), after which the listing is for sale again. On the 390 px phone every
// button of the card, the question it asks and the buyer's photo are in view without scrolling
// (decision 118).
import type { Page } from "@playwright/test";
import { PNG } from "pngjs";
import { expect, test } from "./fixtures";
import { signUpAndSignIn, uniqueEmail } from "./support/accounts";
import { publishListing } from "./support/listings";
import { connectStripe } from "./support/payments";
import { expectSeenWhole } from "./support/in-view";
import { expectAccessible, openSecondBrowser } from "./support/second-browser";
import { screenshotToLookAt } from "./support/screenshots";

const MODERATOR = { email: "moderator@lekebytte.test", password: "lekebytte123" };

async function buy(page: Page, slug: string, price: string, method: "card" | "vipps") {
  await page.goto(`/annonse/${slug}`);
  await page.getByRole("button", { name: `Kjøp nå med trygg betaling (Vipps/Stripe) - ${price}` }).click();
  const dialog = page.getByRole("dialog", { name: "Velg betalingsmåte" });
  if (method === "vipps") await dialog.getByText("Vipps", { exact: true }).click();
  await dialog.getByRole("button", { name: /^Gå til betaling/ }).click();
  if (method === "card") {
    await page.waitForURL(/\/c\/pay\/cs_test_/);
    await page.getByLabel("E-post").fill("kari@test.no");
    await page.getByLabel("Kortnummer").fill("4242 4242 4242 4242");
    await page.getByLabel("Utløpsdato").fill("12 / 40");
    await page.getByLabel("CVC").fill("123");
    await page.getByRole("button", { name: /^Betal / }).click();
  } else {
    await page.waitForURL(/\/vipps\/landing\?token=/);
    await page.getByLabel("Mobilnummer").fill("912 34 567");
    await page.getByRole("button", { name: "Neste" }).click();
    await page.waitForURL(/\/vipps\/app\?token=/);
    await page.getByRole("button", { name: "Godkjenn" }).click();
  }
  await page.waitForURL(/\/payment-success\?session_id=/);
  await expect(page.getByRole("heading", { name: "Betaling fullført!" })).toBeVisible({ timeout: 20_000 });
}

/** A photo of the toy for the problem report: stripes, so it can be told apart on a screenshot. */
function stripedPhoto(): Buffer {
  const png = new PNG({ width: 320, height: 240 });
  for (let y = 0; y < 240; y++)
    for (let x = 0; x < 320; x++) {
      const i = (y * 320 + x) * 4;
      const stripe = Math.floor(x / 40) % 2 === 0;
      png.data.set(stripe ? [200, 60, 40, 255] : [250, 220, 120, 255], i);
    }
  return PNG.sync.write(png);
}

/** The image has been loaded and drawn (not a broken image). */
async function expectDrawn(page: Page, name: string) {
  const img = page.getByRole("img", { name }).first();
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
}

/** The deal's card in the chat. */
const card = (page: Page, title: string) => page.getByRole("article", { name: `Trygg betaling: ${title}` });

test.use({ viewport: { width: 390, height: 844 } });

/** Siri Selger (Stripe connected) lists `title` at `price` kr; Kari Kjøper signs up in `buyer`. */
async function sellerAndBuyer(seller: Page, buyer: Page, title: string, price: string) {
  await signUpAndSignIn(seller.request, uniqueEmail("held-selger"), "Siri Selger");
  await connectStripe(seller.request);
  const listing = await publishListing(seller.request, {
    title,
    category: "ute-lek",
    age_range: "3-5 år",
    description: "Pent brukt.",
    price,
  });
  await signUpAndSignIn(buyer.request, uniqueEmail("held-kjoper"), "Kari Kjøper");
  return listing;
}

test("card: 'Overlevert til kjøper', then 'Jeg har fått varen' → 'Utbetalt til selger' on both sides", async ({ page, browser }) => {
  test.setTimeout(150_000);
  const title = `E2E Trehest ${Date.now().toString(36)}`;
  const seller = await openSecondBrowser(browser);
  await seller.page.setViewportSize({ width: 390, height: 844 });
  try {
    const listing = await sellerAndBuyer(seller.page, page, title, "300");

    await buy(page, listing.seo_slug, "300 kr", "card");
    await page.getByRole("link", { name: "Se betalingsdetaljer" }).click();
    await expect(page.getByText("Pengene holdes trygt til du har fått varen")).toBeVisible();
    await screenshotToLookAt(page, "betaling-fullfort-buyer");
    await page.getByRole("button", { name: "Kontakt selger" }).click();
    await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
    const chatUrl = page.url();
    await expect(card(page, title).getByText("Pengene holdes trygt til du har fått varen")).toBeVisible();

    // The seller marks the handover in the same chat.
    await seller.page.goto(chatUrl);
    await expect(card(seller.page, title).getByText(/^Pengene utbetales når kjøperen har bekreftet/)).toBeVisible();
    // Each button, and the question it asks, is in view without scrolling the strip (decision 118).
    await expectSeenWhole(card(seller.page, title).getByRole("button", { name: "Overlevert til kjøper" }), "Overlevert til kjøper");
    await card(seller.page, title).getByRole("button", { name: "Overlevert til kjøper" }).click();
    await expectSeenWhole(card(seller.page, title).getByText(/^Kjøperen får beskjed og har 48 timer/), "the question");
    await expectSeenWhole(card(seller.page, title).getByRole("button", { name: "Ja" }), "Ja");
    await expectSeenWhole(card(seller.page, title).getByRole("button", { name: "Nei" }), "Nei");
    await screenshotToLookAt(seller.page, "chat-seller-confirm-handover");
    await card(seller.page, title).getByRole("button", { name: "Ja" }).click();
    await expect(card(seller.page, title).getByText(/^Pengene utbetales når kjøperen har bekreftet, senest \d/)).toBeVisible();
    await screenshotToLookAt(seller.page, "chat-seller-handed-over");

    // The buyer sees it live and confirms.
    await expect(card(page, title).getByText(/^Selgeren har markert varen som overlevert/)).toBeVisible({ timeout: 15_000 });
    await screenshotToLookAt(page, "chat-buyer-handed-over");
    await expectSeenWhole(card(page, title).getByRole("button", { name: "Jeg har fått varen" }), "Jeg har fått varen");
    await expectSeenWhole(card(page, title).getByRole("button", { name: "Meld fra om et problem" }), "Meld fra om et problem");
    await card(page, title).getByRole("button", { name: "Jeg har fått varen" }).click();
    await expectSeenWhole(card(page, title).getByText(/^Når du bekrefter, utbetales pengene/), "the question");
    await expectSeenWhole(card(page, title).getByRole("button", { name: "Ja" }), "Ja");
    await expectSeenWhole(card(page, title).getByRole("button", { name: "Nei" }), "Nei");
    await screenshotToLookAt(page, "chat-buyer-confirm-received");
    await card(page, title).getByRole("button", { name: "Ja" }).click();
    // Said once: the badge's words are the card's words.
    await expect(card(page, title).getByText("Utbetalt til selger", { exact: true })).toHaveCount(1);
    await expect(
      page.getByRole("log", { name: "Meldinger" }).getByText("Kjøperen har bekreftet at varen er mottatt. Utbetalt til selger."),
    ).toBeVisible();
    await expect(card(seller.page, title).getByText("Utbetalt til selger", { exact: true })).toHaveCount(1, { timeout: 15_000 });
    await screenshotToLookAt(seller.page, "chat-seller-released");

    // "Mine salg" says so.
    await seller.page.goto("/profile");
    await seller.page.getByRole("tab", { name: "Mine salg (1)" }).click();
    await expect(seller.page.getByRole("tabpanel", { name: "Mine salg (1)" }).getByText("Utbetalt til selger")).toBeVisible();
    await screenshotToLookAt(seller.page, "profile-sales");
  } finally {
    await seller.context.close();
  }
});

test("Vipps: 'Meld fra om et problem' with a photo → the demo moderator sees it and refunds → 'Pengene er betalt tilbake' and the listing is for sale again", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const title = `E2E Dukkehus ${Date.now().toString(36)}`;
  const seller = await openSecondBrowser(browser);
  const moderator = await openSecondBrowser(browser);
  await moderator.page.setViewportSize({ width: 390, height: 844 });
  try {
    const listing = await sellerAndBuyer(seller.page, page, title, "450");

    await buy(page, listing.seo_slug, "450 kr", "vipps");
    await page.getByRole("button", { name: "Kontakt selger" }).click();
    await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
    await card(page, title).getByRole("button", { name: "Meld fra om et problem" }).click();
    const problem = page.getByRole("dialog", { name: "Meld fra om et problem" });
    await problem.getByLabel("Hva er problemet?").selectOption("not_received");
    await problem.getByLabel("Beskriv problemet").fill("Pakken har ikke kommet etter ti dager.");
    // One photo (decision 108): previewed in the dialog, uploaded when the report is sent.
    await problem.getByLabel("Legg ved bilder").setInputFiles([{ name: "eske.png", mimeType: "image/png", buffer: stripedPhoto() }]);
    await expect(problem.getByRole("list", { name: "Valgte bilder (1 av 4)" })).toBeVisible();
    await expectDrawn(page, "Bilde 1: eske.png");
    await screenshotToLookAt(page, "chat-buyer-problem-form");
    await problem.getByRole("button", { name: "Send" }).click();
    await expect(card(page, title).getByText(/^Du har meldt fra om et problem/)).toBeVisible();
    // The buyer's card shows the photo as it was stored (private to the parties and staff), whole.
    await expectDrawn(page, "Bilde 1 av 1 fra kjøperen");
    await expectSeenWhole(card(page, title).getByRole("img", { name: "Bilde 1 av 1 fra kjøperen" }), "the photo");
    await screenshotToLookAt(page, "chat-buyer-problem");

    // The demo moderator refunds in /moderation.
    const signin = await moderator.page.request.post("/api/auth/signin", { data: MODERATOR });
    expect(signin.status()).toBe(200);
    await moderator.page.goto("/moderation");
    const caseCard = moderator.page.getByRole("article", { name: `Betalingssak: ${title}` });
    await expect(caseCard.getByText("Pakken har ikke kommet etter ti dager.")).toBeVisible();
    await caseCard.scrollIntoViewIfNeeded();
    await expectDrawn(moderator.page, "Bilde 1 av 1 fra kjøperen");
    await screenshotToLookAt(moderator.page, "moderation-case");
    await caseCard.getByRole("button", { name: "Vis bilde 1 av 1 fra kjøperen større" }).click();
    const large = moderator.page.getByRole("dialog", { name: "Bilde 1 av 1 fra kjøperen" });
    await expect(large.getByRole("img", { name: "Bilde 1 av 1 fra kjøperen" })).toBeVisible();
    await screenshotToLookAt(moderator.page, "moderation-case-photo");
    await large.getByRole("button", { name: "Lukk" }).click();
    // It cannot be undone: asked once more, with the amount.
    await caseCard.getByRole("button", { name: "Betal tilbake alt" }).click();
    const question = moderator.page.getByRole("alertdialog", { name: "Betale tilbake hele beløpet?" });
    await expect(question).toContainText("Kjøperen får 450,00 kr tilbake. Dette kan ikke angres.");
    await screenshotToLookAt(moderator.page, "moderation-refund-confirm");
    await expectAccessible(moderator.page);
    await question.getByRole("button", { name: "Betal tilbake alt" }).click();
    await expect(caseCard.getByText("Pengene er betalt tilbake", { exact: true }).first()).toBeVisible();

    // The buyer reads it in the chat, once; the listing is for sale again.
    await expect(card(page, title).getByText("Pengene er betalt tilbake", { exact: true })).toHaveCount(1, { timeout: 15_000 });
    // Settled, the card is one line (its photo behind it), and the review prompt below it is in view.
    await expectSeenWhole(page.getByRole("region", { name: "Vurderinger" }).getByRole("button", { name: "Gi vurdering" }), "Gi vurdering");
    await screenshotToLookAt(page, "chat-buyer-refunded");
    await page.goto(`/annonse/${listing.seo_slug}`);
    await expect(page.getByRole("button", { name: "Kjøp nå med trygg betaling (Vipps/Stripe) - 450 kr" })).toBeVisible();
  } finally {
    await moderator.context.close();
    await seller.context.close();
  }
});
