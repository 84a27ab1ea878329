// Accounts for end-to-end tests: each test signs up its own users (confirmed through the local
// outbox) and deletes them at the end.
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expect } from "../fixtures";

export const E2E_PASSWORD = "hemmelig-e2e-1";

export function uniqueEmail(prefix: string): string {
  return `e2e-${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/**
 * A client address of its own for each test account, as each parent signs up from their own phone:
 * the suite signs up more accounts than one address may in an hour (RATE_RULES.signupAddress, 20).
 * Locally the Worker takes CF-Connecting-IP from the request; on Cloudflare the edge sets it and a
 * client cannot. The per-address limit itself is tested in the worker suite.
 */
function ownAddress(): string {
  const byte = () => 1 + Math.floor(Math.random() * 254);
  return `10.${byte()}.${byte()}.${byte()}`;
}

/** Sign up and confirm through the local outbox with the request context's cookie jar (so its pages are signed in). */
export async function signUpAndSignIn(request: APIRequestContext, email: string, displayName = "E2E Selger"): Promise<void> {
  // The same phone confirms as signed up: the suite opens more links than one address may in 15
  // minutes (RATE_RULES.callbackAddress, 60).
  const address = ownAddress();
  const signUp = await request.post("/api/auth/signup", {
    data: { display_name: displayName, email, password: E2E_PASSWORD },
    headers: { "CF-Connecting-IP": address },
  });
  expect(signUp.status(), await signUp.text()).toBe(201);
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const mails = (await (await request.get(`/api/dev/mail.json?to=${encodeURIComponent(email)}`)).json()) as { text_body: string }[];
        code = mails.map((m) => /\/auth\/callback\?code=([^\s"<>&]+)/.exec(m.text_body)?.[1]).find(Boolean);
        return code;
      },
      { message: "a confirmation mail", timeout: 10_000 },
    )
    .toBeTruthy();
  const callback = await request.post("/api/auth/callback", {
    data: { code: decodeURIComponent(code!) },
    headers: { "CF-Connecting-IP": address },
  });
  expect(callback.status(), await callback.text()).toBe(200);
}

/**
 * Delete the request context's account at the end of a test (the API asks for the password again),
 * from the account's own address like its sign-up: the suite deletes more accounts than one address
 * may ask for the password in 15 minutes (RATE_RULES.reauthAddress, 30).
 */
export async function deleteAccount(request: APIRequestContext, password = E2E_PASSWORD): Promise<void> {
  await request.delete("/api/me", { data: { password }, headers: { "CF-Connecting-IP": ownAddress() } });
}

/**
 * Sign in with the sign-in form in `form` (the page's own, or the plain one that works without
 * JavaScript) and check that the page lands on home with this account's session.
 */
export async function signInWithForm(page: Page, form: Page | Locator, email: string, password: string): Promise<void> {
  await form.getByLabel("E-post").fill(email);
  await form.getByLabel("Passord").fill(password);
  await form.getByRole("button", { name: "Logg inn", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  const session = (await (await page.request.get("/api/auth/session")).json()) as { user: { email: string } } | null;
  expect(session?.user.email).toBe(email);
}
