// Shared by the analytics endpoint tests (tests/worker/analytics/): a POST through the app with a
// queue that records what would be sent, from an address of its own, under the signed cookie of a
// session the server issued.
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, expect } from "vitest";
import { app } from "../../../worker/app";
import { createListing, sessionBody } from "../../factories";
import { ORIGIN } from "./http";

export interface Sent {
  body: unknown;
  options?: QueueSendOptions;
}

let ipCounter = 0;
/** Each test its own IP, so rate-limit windows never leak between tests. */
export const freshIp = () => `192.0.2.${++ipCounter}`;

/** POST through the app with a queue that records what would be sent; by default under SESSION's signed cookie. */
export async function post(path: string, body: string | unknown, headers: Record<string, string> = {}) {
  if (path !== "/api/analytics/sessions" && !("Cookie" in headers)) headers = { Cookie: sessionCookie, ...headers };
  const sent: Sent[] = [];
  const queue = {
    send: async (message: unknown, options?: QueueSendOptions) => {
      sent.push({ body: message, options });
    },
    sendBatch: async () => {
      throw new Error("not used");
    },
  } as unknown as Queue;
  const request = new Request(ORIGIN + path, {
    method: "POST",
    headers: { Origin: ORIGIN, "Content-Type": "application/json", "CF-Connecting-IP": freshIp(), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const res = await app.fetch(request, { ...env, ANALYTICS_QUEUE: queue }, createExecutionContext());
  return { res, sent };
}

export const SESSION = "3f2a9c1e-7b4d-4e2a-9c3b-1234567890ab";
export const LISTING = "1a2a9c1e-7b4d-4e2a-9c3b-1234567890ab";

/** The `name=value` of the analytics cookie a response sets, or null. */
export function analyticsCookieOf(res: Response): string | null {
  const line = res.headers.getSetCookie().find((l) => l.startsWith("lb_analytics="));
  return line ? line.split(";")[0] : null;
}

/** SESSION's signed cookie, as /sessions gives it to a consenting browser; LISTING exists. */
export let sessionCookie = "";

/** Before the file's tests: SESSION's cookie (what post() sends by default), and LISTING. */
export function withAnalyticsSession(): void {
  beforeAll(async () => {
    const { res } = await post("/api/analytics/sessions", sessionBody(SESSION));
    expect(res.status).toBe(202);
    sessionCookie = analyticsCookieOf(res)!;
    await createListing({ id: LISTING });
  });
}
