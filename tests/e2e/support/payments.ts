// A seller with a finished Stripe Connect account, through the sandbox's onboarding form: the same
// path a seller takes on /profile ("Koble til Stripe"), without the clicks.
import type { APIRequestContext } from "@playwright/test";
import { expect } from "../fixtures";

/** Connect the request context's account to Stripe; afterwards its listings can be paid in the app. */
export async function connectStripe(request: APIRequestContext): Promise<void> {
  const link = await request.post("/api/payments/stripe/account-link");
  expect(link.status(), await link.text()).toBe(200);
  const { url } = (await link.json()) as { url: string };
  const done = await request.post(url, {
    form: { first_name: "Siri", last_name: "Selger", account_number: "12345678903" },
    maxRedirects: 0,
  });
  expect(done.status(), await done.text()).toBe(303);
  // Reading the account refreshes it from Stripe and turns payment on for the seller's listings.
  const status = await request.get("/api/payments/stripe/account");
  expect(await status.json()).toMatchObject({ charges_enabled: true });
}
