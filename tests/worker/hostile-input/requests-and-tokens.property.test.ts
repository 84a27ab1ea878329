// Hostile input through the Worker's real fetch (./rules.ts; docs/security.md; docs/decisions/061):
// tampered access tokens and device cookies, other sites' requests, any client address header, and
// malformed ids in the path. Every answer holds the suite's three rules: no 5xx, a refusal is a 4xx
// with a Norwegian message, and a refusal changes nothing stored.
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RATE_RULES } from "../../../domain/rate-limits";
import { app } from "../../../worker/app";
import { createListing, createUser, signedInClient } from "../../factories";
import { Client, errorOf } from "../support/http";
import { countAttempts } from "../support/rate-limits";
import { stateChanges, storedState } from "../support/state";
import { judge, mutatingRoutes, RUNS, text } from "./rules";

describe("JWT tampering", () => {
  it("any change to a valid access token makes it a visitor's request, never a 5xx", async () => {
    const user = await createUser();
    const token = (await signedInClient(user.id)).cookies.get("lb_access")!;
    const b64 = (s: string) => btoa(s).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
    const [header, payload, signature] = token.split(".");
    const claims = JSON.parse(atob(payload.replaceAll("-", "+").replaceAll("_", "/"))) as Record<string, unknown>;
    const mutation = fc.oneof(
      // One character of the token replaced.
      fc
        .tuple(fc.nat(token.length - 1), fc.constantFrom(..."ABCabc019-_.=+/ "))
        .map(([i, c]) => token.slice(0, i) + c + token.slice(i + 1)),
      // A claim changed (or added) under the original signature.
      fc
        .tuple(
          fc.constantFrom("sub", "exp", "iss", "aud", "token_type", "sid", "role", "nbf"),
          fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
        )
        .map(([k, v]) => `${header}.${b64(JSON.stringify({ ...claims, [k]: v }))}.${signature}`),
      // Another header: another algorithm, a key id, no signature.
      fc
        .constantFrom("none", "HS512", "RS256", "ES256", "HS256 ", "")
        .map((alg) => `${b64(JSON.stringify({ alg, typ: "JWT" }))}.${payload}.${alg === "none" ? "" : signature}`),
      // Structure broken.
      fc.constantFrom(`${header}.${payload}`, `${header}..${signature}`, `${token}.`, token.repeat(2), "", "a.b.c"),
    );
    // The bytes each part stands for. The last character of a part carries bits that decode to nothing
    // (a 32-byte signature is 43 characters): a change to those alone is the same token, and valid.
    const bytes = (t: string) => {
      try {
        return t
          .split(".")
          .map((part) => atob(part.replaceAll("-", "+").replaceAll("_", "/")))
          .join(".");
      } catch {
        return null;
      }
    };
    await fc.assert(
      fc.asyncProperty(mutation, async (forged) => {
        fc.pre(forged !== token && bytes(forged) !== bytes(token));
        const client = new Client();
        client.cookies.set("lb_access", forged);
        const res = await client.get("/api/me");
        expect(await judge(res)).toBe(401);
      }),
      RUNS,
    );
  });
});

// ------------------------------------------------------------------------------------------------

describe("cross-site requests", () => {
  it("every state-changing route refuses another site's Origin and Sec-Fetch-Site, with a Norwegian 403, nothing changed", async () => {
    const admin = await createUser({ role: "admin" });
    const client = await signedInClient(admin.id);
    // Providers and the carrier are not browsers: their webhooks answer to a signature instead.
    const routes = mutatingRoutes().filter(
      (r) => !r.path.startsWith("/api/payments/webhooks") && !r.path.startsWith("/api/shipping/webhooks"),
    );
    expect(routes.length).toBeGreaterThan(40);
    const before = await storedState();
    for (const route of routes) {
      const foreign: Record<string, string>[] = [
        { Origin: "https://evil.example" },
        { Origin: "null" },
        { Origin: "http://localhost.evil.example" },
        { "Sec-Fetch-Site": "cross-site" },
        { "Sec-Fetch-Site": "same-site" },
      ];
      for (const headers of foreign) {
        const res = await client.request(route.path, { method: route.method, json: {}, headers });
        expect(res.status, `${route.method} ${route.path} ${JSON.stringify(headers)}`).toBe(403);
        expect((await errorOf(res)).message).toBe("Forespørselen kom fra et annet nettsted og ble avvist.");
      }
    }
    expect(stateChanges(before, await storedState())).toEqual([]);
  });
});

// ------------------------------------------------------------------------------------------------

describe("the client address header (decision 082)", () => {
  // Cloudflare sets CF-Connecting-IP, but nothing stops a request from carrying any value there
  // locally or through a misconfigured proxy: limits and auto-hide must take whatever it holds.
  const address = fc.oneof(
    fc.constantFrom(
      "",
      "::",
      ":::",
      "1.2.3.999",
      "01.2.3.4",
      "2001:db8::1::2",
      "::ffff:1.2.3.4",
      "fe80::1%eth0",
      "x".repeat(2000),
      "' OR 1=1 --",
      "local",
      "2001:db8:0:0:0:0:0:0:1",
    ),
    fc.stringMatching(/^[!-~]{1,80}$/),
    fc.ipV4(),
    fc.ipV6(),
  );

  it("any value: a report is filed (201) keeping only a 32-hex hash of the network, the contact form answers 201 or 429; never a 5xx", async () => {
    const listing = await createListing();
    await fc.assert(
      fc.asyncProperty(address, async (ip) => {
        const reporter = await createUser();
        const client = await signedInClient(reporter.id);
        const res = await client.post(
          "/api/reports",
          { target_type: "listing", target_id: listing.id, reason: "Annet" },
          { headers: { "CF-Connecting-IP": ip } },
        );
        expect(await judge(res)).toBe(201);
        const contact = await new Client().post(
          "/api/contact",
          { name: "Nina", email: "nina@test.no", subject: "Hei", message: "Et spørsmål." },
          { headers: { "CF-Connecting-IP": ip } },
        );
        expect([201, 429]).toContain(await judge(contact));
      }),
      RUNS,
    );
    const { results } = await env.DB.prepare("SELECT reporter_network FROM reports WHERE target_id = ?1")
      .bind(listing.id)
      .all<{ reporter_network: string }>();
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((r) => /^[0-9a-f]{32}$/.test(r.reporter_network))).toBe(true);
  });
});

// ------------------------------------------------------------------------------------------------

describe("device cookie tampering (decision 084)", () => {
  it("any change to a valid device cookie makes it an unknown device: refused while the account's limit is used up, never a 5xx", async () => {
    const user = await createUser({ password: "hemmelig123" });
    const other = await createUser();
    const client = new Client();
    expect((await client.post("/api/auth/signin", { email: user.email, password: "hemmelig123" })).status).toBe(200);
    const cookie = client.cookies.get("lb_device")!;
    const [userId, nonce, mac] = cookie.split(".");
    // Strangers have used up the account's allowance for unknown devices.
    await countAttempts(RATE_RULES.signinAccount, user.email);
    const mutation = fc.oneof(
      // One character replaced (the last one of the signature too: base64's unused bits).
      fc
        .tuple(fc.nat(cookie.length - 1), fc.constantFrom(..."ABCDEFabc019-_.=+/ "))
        .map(([i, c]) => cookie.slice(0, i) + c + cookie.slice(i + 1)),
      // Parts traded, dropped, repeated or moved to another account.
      fc.constantFrom(
        `${other.id}.${nonce}.${mac}`,
        `${userId}.${mac}.${nonce}`,
        `${userId}.${nonce}`,
        `${userId}.${nonce}.${mac}.${mac}`,
        `${userId}.${nonce}.${mac}=`,
        `${userId}..${mac}`,
        cookie.repeat(2),
        "",
      ),
      // Anything at all.
      text,
    );
    // The same signature spelled another way: the last character's unused low bits flipped.
    const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const respelled = `${userId}.${nonce}.${mac.slice(0, -1)}${ALPHABET[ALPHABET.indexOf(mac.at(-1)!) ^ 1]}`;
    await fc.assert(
      fc.asyncProperty(mutation, async (forged) => {
        fc.pre(forged !== cookie);
        const attacker = new Client();
        attacker.cookies.set("lb_device", encodeURIComponent(forged));
        const res = await attacker.post("/api/auth/signin", { email: user.email, password: "hemmelig123" });
        expect(await judge(res)).toBe(429);
      }),
      { ...RUNS, examples: [[respelled]] },
    );
  });
});

// ------------------------------------------------------------------------------------------------

describe("ids in the path", () => {
  // Every id the app makes is a UUID (worker/lib/uuid.ts); lookups answer any other string as an
  // unknown id without asking D1. Which message a refusal carries is the route's own (they differ).
  const MALFORMED = [
    "ikke-en-id",
    "' OR 1=1 --",
    "x".repeat(300),
    "0b7f6a9e3c1d4e2f8a5b9c0d1e2f3a4b",
    "0b7f6a9e-3c1d-4e2f-8a5b-9c0d1e2f3a4",
    "%00",
  ];
  const UNKNOWN = "0b7f6a9e-3c1d-4e2f-8a5b-9c0d1e2f3a4b";

  /** Every API route with an id in its path, the other parameters filled with values they accept. */
  function idRoutes(): { key: string; method: string; path: (id: string) => string }[] {
    const seen = new Set<string>();
    const out: { key: string; method: string; path: (id: string) => string }[] = [];
    for (const r of app.routes) {
      const key = `${r.method} ${r.path}`;
      if (r.method === "ALL" || !r.path.startsWith("/api/") || r.path.includes(":key{") || seen.has(key)) continue;
      const fixed = r.path
        .replace(/:type/, "listing")
        .replace(/:kind/, "sale")
        .replace(/:direction/, "sent");
      if (!/:[A-Za-z]+/.test(fixed)) continue;
      seen.add(key);
      out.push({ key, method: r.method, path: (id) => fixed.replace(/:[A-Za-z]+/g, encodeURIComponent(id)) });
    }
    return out;
  }

  it("a malformed id is answered exactly as an unknown one on every route: same status, same message, never a 5xx", async () => {
    const client = await signedInClient((await createUser({ role: "admin" })).id);
    const routes = idRoutes();
    expect(routes.length).toBeGreaterThan(30);
    const answer = async (method: string, path: string) => {
      const res = await client.request(path, { method, json: method === "GET" ? undefined : {} });
      const status = await judge(res.clone());
      return `${status} ${await res.text()}`;
    };
    const differ: string[] = [];
    for (const route of routes) {
      const unknown = await answer(route.method, route.path(UNKNOWN));
      for (const id of MALFORMED) {
        const got = await answer(route.method, route.path(id));
        if (got !== unknown) differ.push(`${route.key} ${JSON.stringify(id.slice(0, 40))}: ${got} (unknown id: ${unknown})`);
      }
    }
    expect(differ).toEqual([]);
  });
});
