// Editing a held listing in the browser (decision 086): the giver of a toy reserved through
// the give-away queue tries to turn it into a 900 kr listing on "Rediger annonse"; the page shows why
// it was refused and stays, a text fix is saved, and the queue's "Marker som gitt bort" still works.
import { expect, test } from "./fixtures";
import { deleteAccount, signUpAndSignIn, uniqueEmail } from "./support/accounts";
import { publishListing } from "./support/listings";
import { expectAccessible, openSecondBrowser } from "./support/second-browser";
import { screenshotToLookAt } from "./support/screenshots";

const REFUSAL = "Leken er reservert eller gitt bort gjennom gi bort-køen. Nå kan du bare rette tittel og beskrivelse.";

test.use({ viewport: { width: 390, height: 844 } });

test("a reserved give-away cannot get a price on the edit page; the reason is shown, a text fix is saved and giving it away still works", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const taker = await openSecondBrowser(browser);
  const title = `E2E Brio togbane ${Date.now().toString(36)}`;
  await signUpAndSignIn(page.request, uniqueEmail("held-giver"), "Gro Giver");
  await signUpAndSignIn(taker.page.request, uniqueEmail("held-taker"), "Tore Taker");
  try {
    const { id } = await publishListing(page.request, { title, is_free: true, price: "" });
    const joined = await taker.page.request.post(`/api/giveaways/listings/${id}/queue`, { data: { message: "Kan hente i kveld" } });
    expect(joined.status(), await joined.text()).toBe(201);
    const reserved = await page.request.post(`/api/giveaways/listings/${id}/reserve`, { data: {} });
    expect(reserved.status(), await reserved.text()).toBe(200);

    await page.goto(`/edit-listing/${id}`);
    await page.getByRole("checkbox", { name: "Gi bort" }).uncheck();
    await page.getByLabel("Pris (kr)").fill("900");
    await page.getByRole("button", { name: "Oppdater annonse" }).click();
    const alert = page.getByRole("alert").filter({ hasText: REFUSAL });
    await expect(alert).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/edit-listing/${id}$`));
    await alert.scrollIntoViewIfNeeded();
    await screenshotToLookAt(page, "edits-low-held-edit-390");
    await expectAccessible(page);

    // A typo fix goes through; the toy is still free and reserved.
    await page.reload();
    await page.getByLabel("Tittel").fill(`${title} med bro`);
    await page.getByRole("button", { name: "Oppdater annonse" }).click();
    await expect(page).toHaveURL(/\/profile$/);
    const listing = (await (await page.request.get(`/api/listings/${id}`)).json()) as {
      title: string;
      is_free: boolean;
      price: number | null;
      status: string;
    };
    expect(listing).toMatchObject({ title: `${title} med bro`, is_free: true, price: null, status: "reserved" });

    const given = await page.request.post(`/api/giveaways/listings/${id}/give`, { data: {} });
    expect(given.status(), await given.text()).toBe(200);
  } finally {
    await deleteAccount(taker.page.request);
    await deleteAccount(page.request);
    await taker.context.close();
  }
});
