// Getting back into an account and keeping it safe, on a phone (390 px; docs/decisions/125): "Glemt
// passord?" through the local outbox and signing in with the new password; "Endre e-post" with the
// new address's link; and "Logg ut alle andre", which closes the chat another browser has open.
import type { WebSocket as PlaywrightSocket } from "@playwright/test";
import { FORGOT_PASSWORD_ANSWER } from "../../domain/credentials";
import { expect, test } from "./fixtures";
import { deleteAccount, E2E_PASSWORD, signInWithForm, signUpAndSignIn, uniqueEmail } from "./support/accounts";
import { createListing } from "./support/listings";
import { openSecondBrowser } from "./support/second-browser";

const PHONE = { width: 390, height: 844 };
const NEW_PASSWORD = "nytt-e2e-passord-2";

test("Glemt passord? through the local outbox, then signing in with the new password", async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize(PHONE);
  const email = uniqueEmail("glemt");
  await signUpAndSignIn(page.request, email, "Glemsk Forelder");
  let password = E2E_PASSWORD;
  try {
    expect((await page.request.post("/api/auth/signout")).status()).toBe(204);
    await page.goto("/auth");
    // The app has taken the edge-rendered page over (it sets the title) before anything is typed.
    await expect(page).toHaveTitle(/^Logg inn/);
    await page.getByRole("link", { name: "Glemt passord?" }).click();
    await expect(page).toHaveURL(/\/auth\/glemt-passord$/);
    await expect(page).toHaveTitle(/^Glemt passord/);
    await page.getByLabel("E-post").fill(email);
    await page.getByRole("button", { name: "Send lenke" }).click();
    await expect(page.getByRole("status")).toHaveText(FORGOT_PASSWORD_ANSWER);

    // The mail goes out after the answer: the outbox shows it moments later.
    await expect(async () => {
      await page.goto(`/dev/mail?to=${encodeURIComponent(email)}`);
      await expect(page.getByRole("heading", { name: "Lag nytt passord hos Lekebytte" })).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 10_000 });
    const link = page.getByRole("link", { name: /\/auth\/nytt-passord\?token=/ });
    const href = await link.getAttribute("href");
    await link.click();
    await expect(page.getByRole("heading", { name: "Lag nytt passord" })).toBeVisible();
    await page.getByLabel("Nytt passord", { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel("Gjenta nytt passord").fill("noe-annet");
    await page.getByRole("button", { name: "Lagre nytt passord" }).click();
    await expect(page.getByText("Passordene er ikke like.")).toBeVisible();
    await page.getByLabel("Gjenta nytt passord").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Lagre nytt passord" }).click();
    // Signed in on this browser, on the profile.
    await expect(page).toHaveURL(/\/min-profil$/);
    await expect(page.getByRole("heading", { name: "Min profil" })).toBeVisible();
    password = NEW_PASSWORD;

    // The same link again says it has been used and offers a new one.
    await page.goto(href!);
    await expect(page.getByRole("alert")).toHaveText(/Lenken er allerede brukt/);
    await expect(page.getByRole("link", { name: "Be om en ny lenke" })).toBeVisible();

    // Signed out, the new password signs in through /auth.
    expect((await page.request.post("/api/auth/signout")).status()).toBe(204);
    await page.goto("/auth");
    await expect(page).toHaveTitle(/^Logg inn/);
    await signInWithForm(page, page, email, NEW_PASSWORD);
  } finally {
    await page.request.post("/api/auth/signin", { data: { email, password } });
    await deleteAccount(page.request, password);
  }
});

test("Endre e-post: the address changes when the new address's link is opened", async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize(PHONE);
  const email = uniqueEmail("epost");
  const next = uniqueEmail("epost-ny");
  await signUpAndSignIn(page.request, email, "Flyttende Forelder");
  try {
    await page.goto("/min-profil");
    const section = page.getByRole("region", { name: "E-postadresse" });
    await section.getByRole("button", { name: "Endre e-post" }).click();
    await section.getByLabel("Ny e-postadresse").fill(next);
    await section.getByLabel("Passord").fill(E2E_PASSWORD);
    await section.getByRole("button", { name: "Send bekreftelseslenke" }).click();
    await expect(section.getByRole("status")).toContainText(`Venter på bekreftelse fra ${next}`);
    // Not changed yet.
    expect(((await (await page.request.get("/api/me")).json()) as { email: string }).email).toBe(email);

    let confirmPath: string | undefined;
    await expect
      .poll(async () => {
        const mails = (await (await page.request.get(`/api/dev/mail.json?to=${encodeURIComponent(next)}`)).json()) as {
          text_body: string;
        }[];
        confirmPath = mails.map((m) => /(\/auth\/bekreft-epost\?token=[^\s"<>]+)/.exec(m.text_body)?.[1]).find(Boolean);
        return confirmPath;
      })
      .toBeTruthy();
    const notice = (await (await page.request.get(`/api/dev/mail.json?to=${encodeURIComponent(email)}`)).json()) as { subject: string }[];
    expect(notice.map((m) => m.subject)).toContain("E-postadressen din hos Lekebytte endres");

    await page.goto(confirmPath!);
    await expect(page.getByRole("heading", { name: "E-postadressen er endret" })).toBeVisible();
    await expect(page.getByRole("status")).toContainText(next);
    await page.getByRole("link", { name: "Gå til profilen" }).click();
    await expect(page.getByRole("region", { name: "E-postadresse" })).toContainText(`Du logger inn med ${next}`);
  } finally {
    await deleteAccount(page.request);
  }
});

test("Logg ut alle andre closes the chat another browser has open, and signs it out", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);
  const { context: sellerContext, page: seller } = await openSecondBrowser(browser);
  const { context: laptopContext, page: laptop } = await openSecondBrowser(browser);
  await laptop.setViewportSize(PHONE);
  const email = uniqueEmail("enheter");
  await signUpAndSignIn(seller.request, uniqueEmail("enheter-selger"), "Selma Selger");
  await signUpAndSignIn(laptop.request, email, "Kari To Enheter");
  try {
    const listingId = await createListing(seller.request, `E2E Dukkehus ${Date.now().toString(36)}`);
    const chatSockets: PlaywrightSocket[] = [];
    laptop.on("websocket", (ws) => {
      if (/\/api\/conversations\/[0-9a-f-]{36}\/live/.test(ws.url())) chatSockets.push(ws);
    });
    await laptop.goto(`/listing/${listingId}`);
    // The listing page is edge-rendered; a press before the app has taken it over may be lost
    // (pressing again is harmless: the conversation is opened once).
    await expect(async () => {
      await laptop.getByRole("button", { name: "Send melding" }).click();
      await expect(laptop).toHaveURL(/\/chat\/[0-9a-f-]{36}$/, { timeout: 5_000 });
    }).toPass({ timeout: 60_000 });
    const field = laptop.getByRole("textbox", { name: "Melding" });
    await field.fill("Hei! Er dukkehuset ledig?");
    await field.press("Enter");
    await expect(laptop.getByRole("log").getByText("Hei! Er dukkehuset ledig?")).toBeVisible();
    await expect.poll(() => chatSockets.length).toBe(1);

    // The same person on the phone: signs in, sees both devices, and signs the other out.
    expect((await page.request.post("/api/auth/signin", { data: { email, password: E2E_PASSWORD } })).status()).toBe(200);
    await page.goto("/min-profil");
    const devices = page.getByRole("region", { name: "Innlogget på" });
    await expect(devices.getByTestId("device")).toHaveCount(2);
    await expect(devices.getByText("Denne enheten")).toBeVisible();
    await devices.getByRole("button", { name: "Logg ut alle andre" }).click();
    await expect(devices.getByTestId("device")).toHaveCount(1);

    await expect.poll(() => chatSockets[0]!.isClosed(), { timeout: 5_000 }).toBe(true);
    // The chat learns it is signed out; the phone is still signed in.
    await expect(laptop.getByRole("log")).toBeHidden({ timeout: 10_000 });
    // The laptop's refresh was refused and its cookies cleared: it is a visitor now.
    const laptopSession = await laptop.request.get("/api/auth/session");
    expect(laptopSession.status() === 401 || (await laptopSession.json()) === null).toBe(true);
    const phoneSession = (await (await page.request.get("/api/auth/session")).json()) as { user: { email: string } } | null;
    expect(phoneSession?.user.email).toBe(email);
  } finally {
    await deleteAccount(seller.request);
    await deleteAccount(page.request);
    await sellerContext.close();
    await laptopContext.close();
  }
});
