// A sandbox per test file on a free port, and a receiver that records webhook requests.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { startPaymentSandbox, type PaymentSandbox, type SandboxConfig } from "../../scripts/payment-sandbox/server";

export const KEYS = {
  stripeKey: "sk_sandbox_test_key",
  stripeWebhookSecret: "whsec_sandbox_test_secret",
  clientId: "client-id",
  clientSecret: "client-secret",
  subscriptionKey: "subscription-key",
  msn: "123456",
  vippsWebhookSecret: "vipps-secret",
};

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** An HTTP server that answers each webhook with the next status from `statuses` (then 200). */
export async function receiver(statuses: number[] = []): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const queue = [...statuses];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      res.writeHead(queue.shift() ?? 200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The sandbox's Vipps configuration with the test keys, plus whatever a test adds (a webhook, redirect URIs). */
export function vippsConfig(extra: Partial<SandboxConfig["vipps"]> = {}): SandboxConfig["vipps"] {
  return { clientId: KEYS.clientId, clientSecret: KEYS.clientSecret, subscriptionKey: KEYS.subscriptionKey, msn: KEYS.msn, ...extra };
}

export async function sandbox(overrides: Partial<SandboxConfig> = {}): Promise<PaymentSandbox> {
  return startPaymentSandbox({
    port: 0,
    stripe: { secretKey: KEYS.stripeKey },
    vipps: vippsConfig(),
    retry: { baseMs: 20, maxAttempts: 4 },
    log: () => undefined,
    ...overrides,
  });
}

export function form(values: Record<string, string>): RequestInit {
  return {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(values).toString(),
    redirect: "manual",
  };
}
