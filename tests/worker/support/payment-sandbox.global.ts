// Vitest global setup (Node): the payment sandbox for the worker tests, on the port the config chose.
// Webhooks are signed but held (not sent): a test fetches the signed request from
// /__sandbox/deliveries and hands it to the Worker itself, so it controls when and how often.
import { SANDBOX_KEYS } from "../../../scripts/payment-sandbox/dev-keys.mjs";
import { startPaymentSandbox } from "../../../scripts/payment-sandbox/server";

/** The Worker under test is reached as http://localhost (tests/worker/support/http.ts). */
export const WEBHOOK_ORIGIN = "http://localhost";

export default async function setup(): Promise<() => Promise<void>> {
  const port = Number(process.env.TEST_PAYMENT_SANDBOX_PORT);
  const sandbox = await startPaymentSandbox({
    port,
    stripe: {
      secretKey: SANDBOX_KEYS.STRIPE_SECRET_KEY,
      webhook: { url: `${WEBHOOK_ORIGIN}/api/payments/webhooks/stripe`, secret: SANDBOX_KEYS.STRIPE_WEBHOOK_SECRET, deliver: false },
    },
    vipps: {
      clientId: SANDBOX_KEYS.VIPPS_CLIENT_ID,
      clientSecret: SANDBOX_KEYS.VIPPS_CLIENT_SECRET,
      subscriptionKey: SANDBOX_KEYS.VIPPS_SUBSCRIPTION_KEY,
      msn: SANDBOX_KEYS.VIPPS_MERCHANT_SERIAL_NUMBER,
      webhook: { url: `${WEBHOOK_ORIGIN}/api/payments/webhooks/vipps`, secret: SANDBOX_KEYS.VIPPS_WEBHOOK_SECRET, deliver: false },
    },
    bring: {
      apiUid: SANDBOX_KEYS.BRING_API_UID,
      apiKey: SANDBOX_KEYS.BRING_API_KEY,
      customerNumber: SANDBOX_KEYS.BRING_CUSTOMER_NUMBER,
      webhook: { url: `${WEBHOOK_ORIGIN}/api/shipping/webhooks/bring`, secret: SANDBOX_KEYS.BRING_WEBHOOK_SECRET, deliver: false },
    },
    helthjem: {
      clientId: SANDBOX_KEYS.HELTHJEM_CLIENT_ID,
      clientSecret: SANDBOX_KEYS.HELTHJEM_CLIENT_SECRET,
      shopId: Number(SANDBOX_KEYS.HELTHJEM_SHOP_ID),
      webhook: {
        url: `${WEBHOOK_ORIGIN}/api/shipping/webhooks/helthjem`,
        secret: SANDBOX_KEYS.HELTHJEM_WEBHOOK_SECRET,
        deliver: false,
      },
    },
    log: () => undefined,
  });
  return () => sandbox.close();
}
