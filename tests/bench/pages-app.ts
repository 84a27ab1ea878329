// The app the page-speed bench measures, and its signed-in visitor: `npm start`'s server on the
// bench's port, the demo user Kari signed in through the API (her session cookies, put into each
// Chromium over the DevTools protocol), and her purchase of one of Ola's listings by card on the
// payment sandbox (Ola connects Stripe on the sandbox's onboarding page first).
import { AppServer } from "./support";

export const server = AppServer.forBench("pages", 8832);
export const BASE = server.origin;
const SANDBOX = server.sandboxBase;
const DEMO_PASSWORD = "lekebytte123";

export interface Cookie {
  name: string;
  value: string;
  path: string;
  httpOnly: boolean;
  secure: boolean;
  sameSite: "Strict" | "Lax" | "None";
  expires?: number;
}

/** Sign a demo user in through the API, as the sign-in form does; the session cookies it sets. */
export async function signIn(email: string): Promise<Cookie[]> {
  const res = await fetch(`${BASE}/api/auth/signin`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: BASE },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in of ${email}: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
  return res.headers.getSetCookie().map((line) => {
    const [pair, ...attributes] = line.split(";").map((part) => part.trim());
    const eq = pair.indexOf("=");
    const attr = (name: string) => attributes.find((a) => a.toLowerCase().startsWith(name.toLowerCase()));
    const maxAge = Number(attr("Max-Age=")?.split("=")[1]);
    const sameSite = attr("SameSite=")?.split("=")[1] ?? "Lax";
    return {
      name: pair.slice(0, eq),
      value: pair.slice(eq + 1),
      path: attr("Path=")?.split("=")[1] ?? "/",
      httpOnly: !!attr("HttpOnly"),
      secure: !!attr("Secure"),
      sameSite: (sameSite[0].toUpperCase() + sameSite.slice(1).toLowerCase()) as Cookie["sameSite"],
      ...(Number.isFinite(maxAge) ? { expires: Math.floor(Date.now() / 1000) + maxAge } : {}),
    };
  });
}

export const cookieHeader = (cookies: Cookie[]) => cookies.map((c) => `${c.name}=${c.value}`).join("; ");

export async function apiAs<T>(cookies: Cookie[], method: string, pathname: string, body?: unknown): Promise<T> {
  const res = await fetch(`${BASE}${pathname}`, {
    method,
    headers: { Origin: BASE, Cookie: cookieHeader(cookies), ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** A form post on one of the sandbox's hosted pages (their URLs name localhost; it listens on 127.0.0.1). */
async function sandboxForm(url: string, fields: Record<string, string>): Promise<string> {
  const u = new URL(url);
  const res = await fetch(`${SANDBOX}${u.pathname}${u.search}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
  await res.arrayBuffer();
  if (res.status !== 303) throw new Error(`${u.pathname}: ${res.status}, expected 303`);
  return res.headers.get("Location") ?? "";
}

/**
 * Kari buys one of Ola's listings by card: Ola connects Stripe on the sandbox, Kari checks out and
 * pays with the test card, and the sandbox's signed webhook completes the sale. Returns the result
 * page's path (the success redirect Stripe Checkout makes) once the purchase is recorded.
 */
export async function purchase(kari: Cookie[]): Promise<string> {
  const ola = await signIn("ola@lekebytte.test");
  const { url: onboarding } = await apiAs<{ url: string }>(ola, "POST", "/api/payments/stripe/account-link");
  await sandboxForm(onboarding, { first_name: "Ola", last_name: "Hansen", account_number: "12345678903" });
  await apiAs(ola, "GET", "/api/payments/stripe/account");
  const own = await apiAs<
    { id: string; status: string; is_free: boolean; price: number | null; payment_enabled: boolean; is_hidden?: boolean }[]
  >(ola, "GET", "/api/me/listings");
  const listing = own.find((l) => l.status === "active" && l.payment_enabled && !l.is_hidden && !l.is_free && (l.price ?? 0) >= 50);
  if (!listing) throw new Error("Ola has no listing for sale in the demo data");
  const { url } = await apiAs<{ url: string }>(kari, "POST", "/api/payments/checkout", { listing_id: listing.id, method: "card" });
  const success = new URL(
    await sandboxForm(url, {
      email: "kari@lekebytte.test",
      card: "4242 4242 4242 4242",
      expiry: "12 / 40",
      cvc: "123",
      name: "Kari Nordmann",
    }),
  );
  for (let i = 0; i < 100; i++) {
    const purchases = await apiAs<unknown[]>(kari, "GET", "/api/payments/purchases");
    if (purchases.length > 0) return `${success.pathname}${success.search}`;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error("the sandbox's webhook did not complete the purchase");
}

/** Put the session cookies into a fresh Chromium (Storage.setCookies on the browser target); Lighthouse keeps cookies. */
export async function setCookies(port: number, cookies: Cookie[]): Promise<void> {
  const { webSocketDebuggerUrl } = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as {
    webSocketDebuggerUrl: string;
  };
  const ws = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve);
    ws.addEventListener("error", reject);
  });
  try {
    const answer = new Promise<{ error?: unknown }>((resolve) =>
      ws.addEventListener("message", (m) => resolve(JSON.parse(String(m.data)))),
    );
    ws.send(
      JSON.stringify({
        id: 1,
        method: "Storage.setCookies",
        params: { cookies: cookies.map((c) => ({ ...c, domain: new URL(BASE).hostname })) },
      }),
    );
    const { error } = await answer;
    if (error) throw new Error(`Storage.setCookies: ${JSON.stringify(error)}`);
  } finally {
    ws.close();
  }
}
