// Accounts in Chromium: sign-up with e-mail confirmation through the local outbox, the profile,
// sign-out and sign-in, wrong passwords, used links and account deletion (docs/product.md "Routes", "Validation", "Error messages").
import { readFileSync } from "node:fs";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const PASSWORD = "hemmelig-e2e-1";

// Toasts fade in and out; axe would measure their text mid-fade (half transparent) and report a
// contrast failure the finished toast does not have. The app's reduced-motion rule makes it instant.
test.use({ reducedMotion: "reduce" });

/** A fresh address per test, so runs never collide (sign-up is rate limited per e-mail too). */
function uniqueEmail(label: string): string {
  return `e2e-${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/**
 * The confirmation link's path and query from the newest mail to `email` in the local outbox. Only
 * the path is kept: links carry the configured APP_ORIGIN, which need not be the server under test.
 */
async function confirmationPath(request: APIRequestContext, email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/dev/mail.json?to=${encodeURIComponent(email)}`);
        const mails = (await response.json()) as { text_body: string }[];
        link = mails.map((m) => /https?:\/\/\S+?\/auth\/callback\?code=[^\s"<>]+/.exec(m.text_body)?.[0]).find(Boolean);
        return link;
      },
      { message: `a confirmation mail to ${email}`, timeout: 10_000 },
    )
    .toBeTruthy();
  const url = new URL(link!);
  return `${url.pathname}${url.search}`;
}

/** Sign up through the API and return the confirmation link (for tests about what comes after). */
async function signUpByApi(request: APIRequestContext, email: string, displayName: string): Promise<string> {
  const response = await request.post("/api/auth/signup", {
    data: { display_name: displayName, email, password: PASSWORD },
  });
  expect(response.status(), await response.text()).toBe(201);
  return confirmationPath(request, email);
}

function toast(page: Page, title: string) {
  return page.getByRole("region", { name: /Varsler/ }).getByText(title, { exact: true });
}

/**
 * Sign in through /auth. A page that is already open gets there by the header's link: a page.goto
 * right after the app has navigated by itself can race the fixture's background axe scan.
 */
async function signIn(page: Page, email: string, password: string, { fromHeader = false } = {}) {
  if (fromHeader) await page.getByRole("banner").getByRole("link", { name: "Logg inn" }).click();
  else await page.goto("/auth");
  const form = page.getByRole("form", { name: "Logg inn" });
  await form.getByLabel("E-post").fill(email);
  await form.getByLabel("Passord").fill(password);
  await form.getByRole("button", { name: "Logg inn" }).click();
}

test("sign up, confirm by e-mail (the link works once), edit the name, sign out and sign in again", async ({ page }) => {
  // Ten pages and page states, each settled and scanned by axe: more than the default 30 s on a busy machine.
  test.setTimeout(60_000);
  const email = uniqueEmail("signup");
  const newName = `Testbruker ${Date.now().toString(36)}`;

  await page.goto("/auth");
  await page.getByRole("tab", { name: "Registrer" }).click();
  const signUp = page.getByRole("form", { name: "Registrer" });
  await signUp.getByLabel("Navn").fill("E2E Forelder");
  await signUp.getByLabel("E-post").fill(email);
  await signUp.getByLabel("Passord").fill(PASSWORD);
  await signUp.getByLabel("Postnummer (valgfritt)").fill("0150");
  await signUp.getByRole("button", { name: "Registrer" }).click();
  await expect(toast(page, "Registrering vellykket!")).toBeVisible();

  // The confirmation link signs in and lands on the profile, replacing the callback entry.
  const link = await confirmationPath(page.request, email);
  await page.goto(link);
  await expect(page).toHaveURL(/\/min-profil$/);
  await expect(page.getByRole("heading", { level: 1, name: "Min profil" })).toBeVisible();

  // The one-time link is spent now. Opened again while signed in, it goes on to the profile
  // (decision 090); opened signed out (another browser), it is the error state, with the tip and
  // a way back to /auth.
  await page.goto(link);
  await expect(page).toHaveURL(/\/min-profil$/);
  await expect(page.getByRole("heading", { level: 1, name: "Min profil" })).toBeVisible();
  const otherBrowser = await page
    .context()
    .browser()!
    .newContext({ baseURL: new URL(page.url()).origin });
  try {
    const signedOut = await otherBrowser.newPage();
    await signedOut.goto(link);
    await expect(signedOut.getByRole("alert")).toHaveText("Kunne ikke logge inn: Lenken er ugyldig, allerede brukt eller utløpt.");
    await expect(signedOut.getByText(/Lenken kan ha utløpt/)).toBeVisible();
    await expect(signedOut.getByRole("link", { name: "Gå til innlogging" })).toHaveAttribute("href", "/auth");
  } finally {
    await otherBrowser.close();
  }

  await page.goto("/min-profil");
  const info = page.locator("section").filter({ has: page.getByRole("heading", { name: "Profilinformasjon" }) });
  await expect(info.getByText(email)).toBeVisible();
  await expect(info.getByText("E2E Forelder")).toBeVisible();
  await expect(info.getByText("0150")).toBeVisible();

  await info.getByRole("button", { name: "Rediger" }).click();
  await info.getByLabel("Navn").fill(`  ${newName} `);
  await info.getByRole("button", { name: "Lagre" }).click();
  await expect(toast(page, "Profil oppdatert")).toBeVisible();
  await expect(info.getByText(newName, { exact: true })).toBeVisible();

  await page.getByRole("main").getByRole("button", { name: "Logg ut", exact: true }).click();
  await expect(toast(page, "Logget ut")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  await signIn(page, email, PASSWORD, { fromHeader: true });
  await expect(toast(page, "Velkommen tilbake!")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole("button", { name: "Min konto" }).click();
  await page.getByRole("menuitem", { name: "Profil" }).click();
  await expect(info.getByText(newName, { exact: true })).toBeVisible();
});

test("a wrong password gives 'Feil innloggingsopplysninger'", async ({ page }) => {
  // A demo account the other specs leave alone (sign-in is rate limited per e-mail).
  await signIn(page, "emil@lekebytte.test", "ikke-riktig-passord");
  await expect(toast(page, "Feil innloggingsopplysninger")).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);
});

test("my data can be downloaded, and a deleted account can no longer sign in", async ({ page }) => {
  const email = uniqueEmail("delete");
  await page.goto(await signUpByApi(page.request, email, "Slettes Snart"));
  await expect(page).toHaveURL(/\/min-profil$/);

  // "Last ned mine data" asks for the password, then saves the export as a JSON file.
  await page.getByRole("button", { name: "Last ned mine data" }).click();
  const confirmDownload = page.getByRole("alertdialog", { name: "Last ned dataene dine" });
  await confirmDownload.getByLabel("Passord").fill("feil-passord");
  await confirmDownload.getByRole("button", { name: "Last ned" }).click();
  await expect(confirmDownload.getByText("Feil passord. Prøv igjen.")).toBeVisible();
  await confirmDownload.getByLabel("Passord").fill(PASSWORD);
  const downloading = page.waitForEvent("download");
  await confirmDownload.getByRole("button", { name: "Last ned" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^lekebytte-mine-data-\d{4}-\d{2}-\d{2}\.json$/);
  const exported = JSON.parse(readFileSync(await download.path(), "utf8")) as Record<string, unknown>;
  expect(JSON.stringify(exported)).toContain(email);

  await page.getByRole("button", { name: "Slett konto" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Slette kontoen din?" });
  await expect(dialog).toContainText("Dette kan ikke angres.");
  await dialog.getByLabel("Passord").fill(PASSWORD);
  await dialog.getByRole("button", { name: "Slett konto for godt" }).click();
  await expect(toast(page, "Kontoen er slettet")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("banner").getByRole("link", { name: "Logg inn" })).toBeVisible();

  await signIn(page, email, PASSWORD, { fromHeader: true });
  await expect(toast(page, "Feil innloggingsopplysninger")).toBeVisible();
});
