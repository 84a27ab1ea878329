// The operator's page end to end (docs/decisions/134-operations-page.md): the demo admin finds
// "Drift" in the account menu and sees the page, with a webhook this spec had refused flagged, and
// every answer carries its request id.
import { expect, test } from "./fixtures";
import { DEMO_PASSWORD } from "./support/demo";

const ADMIN = "admin@lekebytte.test";

test("an admin opens Drift from the account menu and sees a refused webhook flagged", async ({ page }) => {
  // A forged provider webhook: refused, and counted for the page.
  const forged = await page.request.post("/api/payments/webhooks/stripe", {
    headers: { "Stripe-Signature": "t=1,v1=forfalsket" },
    data: { id: "evt_forfalsket", type: "checkout.session.completed" },
  });
  expect(forged.status()).toBe(400);
  expect(forged.headers()["x-request-id"]).toMatch(/^[0-9a-f]{16}$/);

  const signIn = await page.request.post("/api/auth/signin", { data: { email: ADMIN, password: DEMO_PASSWORD } });
  expect(signIn.status(), await signIn.text()).toBe(200);

  await page.goto("/");
  await page.getByRole("button", { name: "Min konto" }).click();
  await page.getByRole("menuitem", { name: "Drift" }).click();
  await expect(page).toHaveURL(/\/admin\/drift$/);
  await expect(page.getByRole("heading", { level: 1, name: "Drift" })).toBeVisible();
  await expect(page.getByText(/forhold krever oppfølging$/)).toBeVisible();

  const webhooks = page.getByRole("region", { name: "Webhooks avvist siste døgn" });
  await expect(webhooks.getByText("Krever oppfølging")).toBeVisible();
  await expect(webhooks.getByText("Stripe")).toBeVisible();
  await expect(webhooks.getByText(/Ugyldig signatur/)).toBeVisible();
  for (const name of ["Penger holdt lenger enn reglene tillater", "Analysekøens etterslep", "Timejobben", "Feil siste time"])
    await expect(page.getByRole("region", { name })).toBeVisible();
});
