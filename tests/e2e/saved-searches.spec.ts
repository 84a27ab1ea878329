// Saved searches in Chromium: one user saves a search with an immediate alert; another
// user publishes a matching listing; the alert arrives in the local outbox (through the local Queue)
// and the account menu shows the badge; opening the search clears it; the e-mail's unsubscribe link
// works signed out and switches off exactly that alert.
import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { deleteAccount, E2E_PASSWORD, signUpAndSignIn, uniqueEmail } from "./support/accounts";
import { createListing } from "./support/listings";
import { expectAccessible } from "./support/second-browser";

async function signIn(request: APIRequestContext, email: string): Promise<void> {
  const res = await request.post("/api/auth/signin", { data: { email, password: E2E_PASSWORD } });
  expect(res.status(), await res.text()).toBe(200);
}

const outboxTo = async (request: APIRequestContext, to: string) =>
  (await (await request.get(`/api/dev/mail.json?to=${encodeURIComponent(to)}`)).json()) as { subject: string; text_body: string }[];

test("save a search, get the alert and the badge when someone else publishes a match, unsubscribe signed out", async ({
  page,
  playwright,
}) => {
  test.setTimeout(120_000);
  const word = `kulebane${Date.now().toString(36)}`;
  const name = "Kulebane til Ida";
  const title = `${word[0].toUpperCase()}${word.slice(1)} i tre`;
  // The searcher and the seller are this test's own: the badge counts every saved search with new matches.
  const searcher = uniqueEmail("saved-searcher");
  await signUpAndSignIn(page.request, searcher, "Ida Søker");

  // Save the search from /search.
  await page.goto(`/search?q=${word}`);
  await expect(page.getByRole("status").filter({ hasText: /annonse/ })).toHaveText("0 annonser");
  await page.getByRole("button", { name: "Lagre søk" }).click();
  const dialog = page.getByRole("dialog", { name: "Lagre søk" });
  await expect(dialog.getByLabel("Navn på søket")).toHaveValue(word[0].toUpperCase() + word.slice(1));
  await expectAccessible(page);
  await dialog.getByLabel("Navn på søket").fill(name);
  await expect(dialog.getByRole("radio", { name: /^Straks/ })).toBeChecked();
  await dialog.getByRole("button", { name: "Lagre søk" }).click();
  await expect(page.getByRole("region", { name: /Varsler/ }).getByText("Søket er lagret", { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();

  // Someone else publishes a listing that matches.
  const base = new URL(page.url()).origin;
  const seller = await playwright.request.newContext({ baseURL: base });
  let listingId: string | undefined;
  try {
    await signUpAndSignIn(seller, uniqueEmail("saved-seller"), "Lars Selger");
    listingId = await createListing(seller, title);

    // The alert arrives in the outbox (the queue consumer matched the listing after the answer).
    let alert: { subject: string; text_body: string } | undefined;
    await expect
      .poll(
        async () => {
          alert = (await outboxTo(page.request, searcher)).find((m) => m.subject.includes(`«${name}»`));
          return alert?.subject;
        },
        { message: "the alert mail", timeout: 45_000, intervals: [1_000] },
      )
      .toBe(`Ny annonse for «${name}»: ${title}`);
    expect(alert!.text_body).toContain(`${base}/annonse/`);
    const link = /(http\S+\/lagrede-sok\/avmeld\?token=\S+)/.exec(alert!.text_body)?.[1];
    expect(link).toBeTruthy();

    // The badge in the app, and in the account menu.
    await page.goto("/");
    const account = page.getByRole("button", { name: "Min konto, 1 lagret søk med nye treff" });
    await expect(account).toHaveText("1");
    await account.click();
    await expectAccessible(page);
    await page.getByRole("menuitem", { name: "Lagrede søk, 1 med nye treff" }).click();
    await expect(page).toHaveURL(/\/lagrede-sok$/);
    const card = page.getByRole("article", { name });
    await expect(card.getByText("1 ny", { exact: true })).toBeVisible();

    // Opening the search shows the listing and clears "new".
    await card.getByRole("link", { name: `Vis treff for ${name}` }).click();
    await expect(page).toHaveURL(new RegExp(`/search\\?q=${word}$`));
    await expect(page.getByRole("heading", { name: title })).toBeVisible();
    await page.goBack();
    await expect(card.getByText("Ingen nye")).toBeVisible();
    await expect(page.getByRole("button", { name: "Min konto", exact: true })).toBeVisible();

    // The unsubscribe link, signed out: it switches off this search's alert only.
    await page.context().clearCookies();
    await page.goto(link!);
    await expect(page.getByRole("heading", { name: "Varselet er slått av" })).toBeVisible();
    await expect(page.getByText(`Du får ikke lenger e-post om nye annonser for «${name}».`, { exact: false })).toBeVisible();
    await signIn(page.request, searcher);
    await page.goto("/lagrede-sok");
    await expect(page.getByRole("article", { name }).getByRole("combobox", { name: "Varsel" })).toHaveValue("off");
  } finally {
    if (listingId) expect((await seller.delete(`/api/listings/${listingId}`)).status()).toBe(204);
    await deleteAccount(seller);
    await seller.dispose();
    await deleteAccount(page.request);
  }
});
