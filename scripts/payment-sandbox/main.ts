#!/usr/bin/env -S tsx
// Starts the payment sandbox on its own port. scripts/start.mjs runs it when no provider keys are
// configured; run it by hand with `npm run sandbox`.
//
//   PAYMENT_SANDBOX_PORT=8817              port (default: 8817)
//   PAYMENT_SANDBOX_APP_URL=http://127.0.0.1:8787   where webhooks go (the app's /api/payments/webhooks/*)
//   PAYMENT_SANDBOX_PUBLIC_URL=http://localhost:8817 base of the hosted pages the browser opens
//   PAYMENT_SANDBOX_RETRY_BASE_MS=1000     first webhook retry delay (doubles per attempt, 8 attempts)
//   PAYMENT_SANDBOX_STATE=path.json        keep accounts and payments across restarts (npm start sets it)
//   PAYMENT_SANDBOX_LOGIN_REDIRECT_URIS=http://localhost:8787/auth/vipps   Vipps Login's registered redirect
//                                          URIs, comma-separated (npm start sets the app's; default: any)
//   PAYMENT_SANDBOX_HOLD_WEBHOOKS=1        sign webhooks but keep them (GET /__sandbox/deliveries) instead
//                                          of sending them: for a client that delivers them itself
//                                          (the crash durability benchmark)
//   STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, VIPPS_*, BRING_*, HELTHJEM_* override the local-only keys in dev-keys.mjs
//   The carriers' webhooks go to the app's /api/shipping/webhooks/bring and …/helthjem; their tester page is /frakt/tester.
import { SANDBOX_KEYS } from "./dev-keys.mjs";
import { startPaymentSandbox } from "./server";

const env = (name: keyof typeof SANDBOX_KEYS) => process.env[name] || SANDBOX_KEYS[name];
const port = Number(process.env.PAYMENT_SANDBOX_PORT || 8817);
const appUrl = (process.env.PAYMENT_SANDBOX_APP_URL || "http://127.0.0.1:8787").replace(/\/$/, "");
const deliver = process.env.PAYMENT_SANDBOX_HOLD_WEBHOOKS !== "1";

const sandbox = await startPaymentSandbox({
  port,
  publicUrl: process.env.PAYMENT_SANDBOX_PUBLIC_URL || undefined,
  stateFile: process.env.PAYMENT_SANDBOX_STATE || undefined,
  stripe: {
    secretKey: env("STRIPE_SECRET_KEY"),
    webhook: { url: `${appUrl}/api/payments/webhooks/stripe`, secret: env("STRIPE_WEBHOOK_SECRET"), deliver },
  },
  vipps: {
    clientId: env("VIPPS_CLIENT_ID"),
    clientSecret: env("VIPPS_CLIENT_SECRET"),
    subscriptionKey: env("VIPPS_SUBSCRIPTION_KEY"),
    msn: env("VIPPS_MERCHANT_SERIAL_NUMBER"),
    webhook: { url: `${appUrl}/api/payments/webhooks/vipps`, secret: env("VIPPS_WEBHOOK_SECRET"), deliver },
    loginRedirectUris: process.env.PAYMENT_SANDBOX_LOGIN_REDIRECT_URIS?.split(",").filter(Boolean),
  },
  bring: {
    apiUid: env("BRING_API_UID"),
    apiKey: env("BRING_API_KEY"),
    customerNumber: env("BRING_CUSTOMER_NUMBER"),
    webhook: { url: `${appUrl}/api/shipping/webhooks/bring`, secret: env("BRING_WEBHOOK_SECRET"), deliver },
  },
  helthjem: {
    clientId: env("HELTHJEM_CLIENT_ID"),
    clientSecret: env("HELTHJEM_CLIENT_SECRET"),
    shopId: Number(env("HELTHJEM_SHOP_ID")),
    webhook: { url: `${appUrl}/api/shipping/webhooks/helthjem`, secret: env("HELTHJEM_WEBHOOK_SECRET"), deliver },
  },
  retry: process.env.PAYMENT_SANDBOX_RETRY_BASE_MS ? { baseMs: Number(process.env.PAYMENT_SANDBOX_RETRY_BASE_MS) } : undefined,
});

console.log(
  `[payment-sandbox] Stripe, Vipps, Vipps Login, Bring and Helthjem sandbox on ${sandbox.url} (webhooks ${deliver ? "to" : "signed and held for"} ${appUrl})`,
);

const stop = () => {
  void sandbox.close().then(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
process.on("SIGHUP", stop);
