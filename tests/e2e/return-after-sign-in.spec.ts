// What a parent meets on a phone: a visitor taps "Send melding" on a listing, signs in,
// and lands back on that listing's conversation (the chat composer), not on the front page.
import { expect, test } from "./fixtures";
import { deleteAccount, E2E_PASSWORD, signUpAndSignIn, uniqueEmail } from "./support/accounts";
import { createListing } from "./support/listings";
import { openSecondBrowser } from "./support/second-browser";

test("'Send melding' as a visitor: sign in, and the chat for that listing opens", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const { context: sellerContext, page: seller } = await openSecondBrowser(browser);
  const suffix = Date.now().toString(36);
  const title = `E2E Brio kran ${suffix}`;
  const buyerEmail = uniqueEmail("return-buyer");
  await signUpAndSignIn(seller.request, uniqueEmail("return-seller"), "Selma Selger");
  // The buyer's account exists, but this browser is signed out (a visitor who has an account).
  await signUpAndSignIn(page.request, buyerEmail, "Kjell Kjøper");
  try {
    const listingId = await createListing(seller.request, title);
    await page.context().clearCookies();

    await page.goto(`/listing/${listingId}`);
    await page.getByRole("button", { name: "Send melding" }).click();
    await expect(page).toHaveURL(/\/auth\?next=/);
    expect(new URL(page.url()).searchParams.get("next")).toBe(`/listing/${listingId}?handling=melding`);

    await page.getByLabel("E-post").fill(buyerEmail);
    await page.getByLabel("Passord").fill(E2E_PASSWORD);
    await page.getByRole("button", { name: "Logg inn", exact: true }).click();

    // Back at the listing, the action carries on: the conversation opens with its composer.
    await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Melding" })).toBeVisible();
    await expect(page.getByText("Ingen meldinger ennå. Send den første!")).toBeVisible();

    // Back goes to the listing without starting it again.
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`/listing/${listingId}$`));
    await expect(page.getByRole("button", { name: "Send melding" })).toBeVisible();
  } finally {
    await deleteAccount(page.request);
    await deleteAccount(seller.request);
    await sellerContext.close();
  }
});

test("a hostile ?next= on /auth stays on this site", async ({ page }) => {
  const email = uniqueEmail("return-hostile");
  await signUpAndSignIn(page.request, email, "Hilde Hjemme");
  try {
    await page.context().clearCookies();
    await page.goto(`/auth?next=${encodeURIComponent("//evil.example/phish")}`);
    const origin = new URL(page.url()).origin;
    await page.getByLabel("E-post").fill(email);
    await page.getByLabel("Passord").fill(E2E_PASSWORD);
    await page.getByRole("button", { name: "Logg inn", exact: true }).click();
    await expect(page).toHaveURL(`${origin}/`);
  } finally {
    await deleteAccount(page.request);
  }
});
