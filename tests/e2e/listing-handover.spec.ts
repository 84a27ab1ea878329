// "Kan sendes" in Chromium at 390 px: the seller ticks it in the wizard, picks "Medium pakke" (each
// size with its measures), publishes, and the listing page and the search card say it can be sent
// (docs/product.md "Create a listing", decision 148).
import { expect, test } from "./fixtures";
import { deleteAccount, signUpAndSignIn, uniqueEmail } from "./support/accounts";
import { photo } from "./support/listings";
import { screenshotToLookAt } from "./support/screenshots";

test("a toy that can be sent: ticked in the wizard with its size, shown on the listing page and the search card", async ({ page }) => {
  test.setTimeout(90_000);
  const email = uniqueEmail("handover");
  const word = `sendes${Date.now().toString(36)}`;
  const title = `Monopol Junior ${word}`;
  await signUpAndSignIn(page.request, email);
  try {
    await page.goto("/create-listing");
    await page.getByLabel("Velg bilder").setInputFiles([{ name: "spill.jpg", mimeType: "image/jpeg", buffer: photo() }]);
    await expect(page.getByRole("list", { name: /Valgte bilder \(1 av 5\)/ }).getByRole("listitem")).toHaveCount(1);
    await page.getByRole("button", { name: "Neste" }).click();
    await page.getByLabel("Tittel").fill(title);
    await page.getByRole("button", { name: "Neste" }).click();
    await expect(page.getByText("Steg 3 av 4")).toBeVisible();
    await page.getByText("Spill", { exact: true }).click();
    await page.getByText("6-8 år", { exact: true }).click();
    await page.getByText("Meget god", { exact: true }).click();
    await page.getByRole("button", { name: "Neste" }).click();
    await expect(page.getByText("Steg 4 av 4")).toBeVisible();
    await page.getByLabel("Pris (kr)").fill("150");
    await page.getByLabel("Postnummer").fill("0150");

    const ways = page.getByRole("group", { name: "Hvordan kan kjøperen få leken?" });
    await expect(ways.getByRole("checkbox", { name: "Hentes" })).toBeChecked();
    // With the keyboard, as a screen-reader user would: Space ticks the focused box.
    await ways.getByRole("checkbox", { name: "Kan sendes" }).focus();
    await page.keyboard.press("Space");
    await expect(ways.getByRole("checkbox", { name: "Kan sendes" })).toBeChecked();
    const sizes = page.getByRole("group", { name: "Pakkestørrelse" });
    await expect(sizes.getByRole("radio")).toHaveCount(3);
    await expect(sizes).toContainText("Maks 45 × 30 × 15 cm og 5 kg");
    // Publishing without a size is refused at the field.
    await page.getByRole("button", { name: "Publiser annonse" }).click();
    await expect(sizes.getByText("Velg hvor stor pakken er.")).toBeVisible();
    await sizes.getByText("Medium pakke", { exact: true }).click();
    await expect(sizes.getByRole("radio", { name: /Medium pakke/ })).toBeChecked();
    await sizes.scrollIntoViewIfNeeded();
    await screenshotToLookAt(page, "handover-wizard");
    await page.getByRole("button", { name: "Publiser annonse" }).click();
    await expect(page).toHaveURL(/\/$/, { timeout: 20_000 });

    await page.goto(`/search?q=${word}`);
    const card = page.getByRole("article").filter({ has: page.getByRole("link", { name: title }) });
    await expect(card.getByText("Kan sendes", { exact: true })).toBeVisible();
    await screenshotToLookAt(page, "handover-search-card");

    await card.getByRole("link", { name: title }).click();
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    // The listing's facts; the owner's statistics are a list of their own, which may land first.
    const details = page
      .getByRole("main")
      .locator("dl")
      .filter({ has: page.getByText("Levering", { exact: true }) });
    await expect(details.getByText("Levering", { exact: true })).toBeVisible();
    await expect(details.getByText("Hentes, Kan sendes (Medium pakke)", { exact: true })).toBeVisible();
    await details.scrollIntoViewIfNeeded();
    await screenshotToLookAt(page, "handover-listing-page");
  } finally {
    await deleteAccount(page.request);
  }
});
