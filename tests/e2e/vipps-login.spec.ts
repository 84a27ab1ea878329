// "Logg inn med Vipps" in Chromium at 390 px through the offline sandbox's Vipps Login (started by
// scripts/e2e.mjs; docs/decisions/128-vipps-login.md): a new person gets an account from /auth, and
// an existing account is proved with its password, linked, and signed straight in to the next time.
// Each test makes its own person (own e-mail and phone number, so its own Vipps `sub`).
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { deleteAccount, E2E_PASSWORD, signUpAndSignIn, uniqueEmail } from "./support/accounts";

interface Person {
  name: string;
  email: string;
  phone: string;
}

function newPerson(prefix: string): Person {
  const digits = String(Date.now() % 10_000_000).padStart(7, "0");
  return { name: `Vera ${prefix}`, email: uniqueEmail(`vipps-${prefix}`), phone: `9${digits}` };
}

function toast(page: Page, title: string) {
  return page.getByRole("region", { name: /Varsler/ }).getByText(title, { exact: true });
}

/** From /auth to the sandbox's Vipps page, as the person, and back. */
async function logInWithVipps(page: Page, person: Person): Promise<void> {
  await page.goto("/auth");
  await page.getByRole("button", { name: "Logg inn med Vipps" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Logg inn på Lekebytte" })).toBeVisible();
  await page.getByRole("radio", { name: /Egen testperson/ }).check();
  await page.getByLabel("Navn", { exact: true }).fill(person.name);
  await page.getByLabel("E-post", { exact: true }).fill(person.email);
  await page.getByLabel("Mobilnummer", { exact: true }).fill(person.phone);
  await page.getByRole("button", { name: "Del og logg inn" }).click();
}

test("a new person signs up through 'Logg inn med Vipps': name, e-mail and a verified phone from Vipps", async ({ page }) => {
  const person = newPerson("ny");
  await logInWithVipps(page, person);
  await expect(toast(page, "Velkommen tilbake!")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("button", { name: "Min konto" })).toBeVisible();

  await page.goto("/min-profil");
  const info = page.locator("section").filter({ has: page.getByRole("heading", { name: "Profilinformasjon" }) });
  await expect(info.getByText(person.email)).toBeVisible();
  await expect(info.getByText(person.name, { exact: true })).toBeVisible();
  const vipps = page.locator("section").filter({ has: page.getByRole("heading", { name: "Vipps", exact: true }) });
  await expect(vipps.getByText("Verifisert med Vipps")).toBeVisible();
  await expect(vipps.getByText(`+47 ${person.phone.slice(0, 3)} ${person.phone.slice(3, 5)} ${person.phone.slice(5)}`)).toBeVisible();
  // Vipps is this account's only way in: nothing to unlink it with.
  await expect(vipps.getByRole("button", { name: "Koble fra Vipps" })).toHaveCount(0);
});

test("an existing account is proved with its password, linked, and signed straight in to the next time", async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const person = newPerson("konto");
  // The account, made through the API in a context of its own: this browser stays signed out.
  const owner = await playwright.request.newContext({ baseURL });
  await signUpAndSignIn(owner, person.email, "Kari Konto");
  try {
    await logInWithVipps(page, person);
    await expect(page.getByRole("heading", { level: 1, name: "Bekreft kontoen din" })).toBeVisible();
    await expect(page).toHaveURL(/\/auth\/vipps\?bekreft=1$/);
    await expect(page.getByText(person.email)).toBeVisible();
    // The e-mail alone signed nobody in.
    await expect(page.getByRole("banner").getByRole("link", { name: "Logg inn" })).toBeVisible();

    await page.getByLabel("Passord").fill("ikke-passordet");
    await page.getByRole("button", { name: "Bekreft og koble til Vipps" }).click();
    await expect(page.getByText("Feil passord. Prøv igjen.")).toBeVisible();
    await page.getByLabel("Passord").fill(E2E_PASSWORD);
    await page.getByRole("button", { name: "Bekreft og koble til Vipps" }).click();
    await expect(toast(page, "Vipps er koblet til")).toBeVisible();
    await expect(page).toHaveURL(/\/min-profil$/);
    const vipps = page.locator("section").filter({ has: page.getByRole("heading", { name: "Vipps", exact: true }) });
    await expect(vipps.getByText("Verifisert med Vipps")).toBeVisible();
    await expect(vipps.getByRole("button", { name: "Koble fra Vipps" })).toBeVisible();

    await page.getByRole("main").getByRole("button", { name: "Logg ut", exact: true }).click();
    await expect(toast(page, "Logget ut")).toBeVisible();

    // The next time: Vipps signs straight in to the same account, no proof asked.
    await logInWithVipps(page, person);
    await expect(toast(page, "Velkommen tilbake!")).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/min-profil");
    await expect(
      page
        .locator("section")
        .filter({ has: page.getByRole("heading", { name: "Profilinformasjon" }) })
        .getByText("Kari Konto"),
    ).toBeVisible();
  } finally {
    await deleteAccount(owner);
    await owner.dispose();
  }
});
