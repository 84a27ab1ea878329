// Sending to the analytics API (decision 038): the session every send waits for, sendBeacon when
// the page is being hidden, and failures that are only logged (docs/product.md "Error messages").
const API = "/api/analytics";

export function log(message: string, error?: unknown): void {
  // docs/product.md "Error messages": analytics failures are only logged, never shown.
  console.warn(`Analytics: ${message}`, error ?? "");
}

export function newId(): string {
  return crypto.randomUUID();
}

/** Whether a failed send is worth trying again (not a request the server refused as invalid). */
export function retryable(status: number): boolean {
  return status === 0 || status === 429 || status >= 500;
}

/**
 * The server counts events, views and searches only under the signed session cookie that
 * POST /sessions sets (decision 038): everything else waits until that answer is in, and a 403
 * (cookie expired or cleared) asks for a new session once and sends again.
 */
let sessionPending: Promise<unknown> | null = null;
let renewSession: (() => Promise<unknown>) | null = null;

/** The running tracker's way to ask for a new session (null: no tracker, forget any pending one). */
export function setSessionRenewer(renew: (() => Promise<unknown>) | null): void {
  renewSession = renew;
  if (!renew) sessionPending = null;
}

/** Sends wait for `request` until it settles (and no longer: a settled session costs no tick, so a beacon at page hide goes out at once). */
export function awaitSession(request: Promise<unknown>): Promise<unknown> {
  const pending = request.finally(() => {
    if (sessionPending === pending) sessionPending = null;
  });
  sessionPending = pending;
  return pending;
}

/**
 * POST JSON to an analytics endpoint. `leaving`: the page is being hidden, so use sendBeacon (the
 * browser delivers it after the page is gone), falling back to a keepalive fetch. Resolves to the
 * HTTP status, 0 when the network failed; never rejects.
 */
export async function send(path: string, body: unknown, leaving = false): Promise<number> {
  if (path === "/sessions") return post(path, body, leaving);
  if (sessionPending) await sessionPending;
  const status = await post(path, body, leaving);
  if (status !== 403 || !renewSession) return status;
  await renewSession();
  return post(path, body, leaving);
}

async function post(path: string, body: unknown, leaving: boolean): Promise<number> {
  const json = JSON.stringify(body);
  if (leaving && typeof navigator.sendBeacon === "function") {
    try {
      if (navigator.sendBeacon(API + path, new Blob([json], { type: "application/json" }))) return 202;
    } catch (error) {
      log("sendBeacon failed", error);
    }
  }
  try {
    const response = await fetch(API + path, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      credentials: "same-origin",
      body: json,
      keepalive: leaving,
    });
    return response.status;
  } catch (error) {
    log(`sending ${path} failed`, error);
    return 0;
  }
}
