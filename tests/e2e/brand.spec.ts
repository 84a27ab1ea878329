// "Merke" in Chromium: typed in the wizard (a suggestion's spelling is kept), shown on the listing
// page as a link to every listing of the brand, a removable chip on the search page, and a box in
// the filter sheet (docs/product.md "Create a listing", "Search").
import { expect, test } from "./fixtures";
import { deleteAccount, signUpAndSignIn, uniqueEmail } from "./support/accounts";
import { photo } from "./support/listings";

test("a brand typed in the wizard is shown, linked, searched and filtered on", async ({ page }) => {
  test.setTimeout(90_000);
  const email = uniqueEmail("brand");
  const word = `merke${Date.now().toString(36)}`;
  const title = `Togbane ${word}`;
  await signUpAndSignIn(page.request, email);
  try {
    await page.goto("/create-listing");
    await page.getByLabel("Velg bilder").setInputFiles([{ name: "tog.jpg", mimeType: "image/jpeg", buffer: photo() }]);
    await expect(page.getByRole("list", { name: /Valgte bilder \(1 av 5\)/ }).getByRole("listitem")).toHaveCount(1);
    await page.getByRole("button", { name: "Neste" }).click();

    await page.getByLabel("Tittel").fill(title);
    const brand = page.getByLabel("Merke (valgfritt)");
    await expect(brand).toHaveAttribute("placeholder", "F.eks. Lego, Brio eller Playmobil");
    await brand.fill("x".repeat(41));
    // The box holds at most 40 characters, as the server allows.
    await expect(brand).toHaveValue("x".repeat(40));
    await brand.fill("brio");
    await page.getByRole("button", { name: "Neste" }).click();

    await expect(page.getByText("Steg 3 av 4")).toBeVisible();
    await page.getByText("Lego", { exact: true }).click();
    await page.getByText("3-5 år", { exact: true }).click();
    await page.getByText("Meget god", { exact: true }).click();
    await page.getByRole("button", { name: "Neste" }).click();
    await expect(page.getByText("Steg 4 av 4")).toBeVisible();
    await page.getByLabel("Pris (kr)").fill("200");
    await page.getByLabel("Postnummer").fill("0150");
    await page.getByRole("button", { name: "Publiser annonse" }).click();
    await expect(page).toHaveURL(/\/$/, { timeout: 20_000 });

    // The search's text finds it by the brand, although the title does not say it.
    await page.goto(`/search?q=${word}%20brio`);
    await page.getByRole("link", { name: title }).click();
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    const details = page.getByRole("main").locator("dl");
    await expect(details.getByText("Merke", { exact: true })).toBeVisible();

    // The value is written as the suggestion ("Brio") and links to every Brio listing.
    await details.getByRole("link", { name: "Brio", exact: true }).click();
    await expect(page).toHaveURL(/\/search\?brand=Brio$/);
    await expect(page.getByRole("link", { name: title })).toBeVisible();
    const chip = page.getByRole("button", { name: /Merke: Brio/ });
    await expect(chip).toBeVisible();

    // The filter sheet has the box; another brand finds none of this listing.
    await page.getByRole("button", { name: /^Filter/ }).click();
    const sheet = page.getByRole("dialog", { name: "Filter" });
    await expect(sheet.getByLabel("Merke", { exact: true })).toHaveValue("Brio");
    await sheet.getByLabel("Merke", { exact: true }).fill("playmobil");
    await sheet.getByRole("button", { name: /^Vis / }).click();
    await expect(page).toHaveURL(/\/search\?brand=Playmobil$/);
    await expect(page.getByRole("button", { name: /Merke: Playmobil/ })).toBeVisible();
    await expect(page.getByRole("link", { name: title })).toHaveCount(0);
  } finally {
    await deleteAccount(page.request);
  }
});
