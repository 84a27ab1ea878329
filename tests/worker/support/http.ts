// A tiny browser-like client for worker integration tests: same-origin requests through
// exports.default.fetch with a cookie jar.
import { exports } from "cloudflare:workers";

export const ORIGIN = "http://localhost";

export class Client {
  cookies = new Map<string, string>();
  /** The Worker's own entry; a test may send through the app with bindings of its own instead. */
  send: (request: Request) => Promise<Response> = (request) => exports.default.fetch(request);

  async request(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set("Origin", headers.get("Origin") ?? ORIGIN);
    if (this.cookies.size && !headers.has("Cookie")) {
      headers.set("Cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    }
    let body = init.body;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers.set("Content-Type", "application/json");
    }
    const res = await this.send(new Request(ORIGIN + path, { ...init, headers, body }));
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /max-age=0\b/i.test(a.trim()) || /expires=thu, 01 jan 1970/i.test(a.trim()));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  get(path: string, init: RequestInit = {}) {
    return this.request(path, { ...init, method: "GET" });
  }

  post(path: string, json?: unknown, init: RequestInit = {}) {
    return this.request(path, { ...init, method: "POST", json });
  }

  patch(path: string, json?: unknown) {
    return this.request(path, { method: "PATCH", json });
  }

  delete(path: string) {
    return this.request(path, { method: "DELETE" });
  }
}

let visitors = 0;

/**
 * A client address (CF-Connecting-IP) no other request of the workerd process has used, for a test
 * that stands for many visitors: the per-address limits (RATE_RULES.searchAddress, 120 a minute on
 * the Rate Limiting binding, whose counters every file of the process shares, as it shares this
 * module) count each visitor apart.
 */
export function visitorAddress(): string {
  visitors += 1;
  return `10.250.${(visitors >> 8) & 255}.${visitors & 255}`;
}

/** Headers of a request from a visitor of its own (visitorAddress). */
export const asVisitor = (): RequestInit => ({ headers: { "CF-Connecting-IP": visitorAddress() } });

export async function errorOf(res: Response): Promise<{ code: string; message: string; fields?: Record<string, string> }> {
  const body = (await res.json()) as { error: { code: string; message: string; fields?: Record<string, string> } };
  return body.error;
}

/** English words the default messages of zod, Hono and the runtime use, and Norwegian texts do not. */
const ENGLISH =
  /\b(invalid|expected|required|received|must|should|error|failed|unauthorized|forbidden|undefined|null|NaN|object|string|number|too (big|small|large))\b/i;
/** Words that every Norwegian message of this app has at least one of (or æ, ø, å). */
const NORWEGIAN =
  /[æøå]|\b(er|ikke|fyll|må|kan|for|du|og|en|et|på|til|med|av|som|fant|ugyldig|velg|mangler|finnes|logget|inn|allerede|teksten|forespørselen|prøv|annonse|bildet|filen|lengre|kortere|mellom|minst|maks|signatur|ukjent|ukjente|oppgi|igjen|feltet|felter|tallet|verdi|valg|format|ingen|ble|har|kunne|denne|dette)\b/i;

/** A message a person can read: Norwegian, not a library's English default. */
export function isNorwegianMessage(message: unknown): boolean {
  return typeof message === "string" && message.trim().length > 3 && !ENGLISH.test(message) && NORWEGIAN.test(message);
}
