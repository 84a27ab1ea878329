// Hostile input through the Worker's real fetch (docs/security.md; docs/decisions/061): tables
// and fast-check properties for what the other suites do not already cover. Every property holds the
// same three rules: no 5xx, a refusal is a 4xx with a Norwegian message, and a refusal changes
// nothing stored (../support/state.ts). Already covered elsewhere, and not repeated here: forged,
// re-signed, tampered, stale and replayed webhooks (payments-*-webhooks), alg:none, foreign-key,
// expired and tampered-claim JWTs (auth), cross-site POSTs and non-JSON bodies (auth), foreign-Origin
// WebSocket upgrades (chat-live-sending), a 6 MB image and a text file as a photo (listings-create),
// 64 KB+ JSON bodies (auth, analytics), the FTS5 escaper (search-fts.property) and fixed escaping
// cases (seo).
//
// This module holds what the suite's files share: the three rules (judge), the hostile text they
// throw, and the list of state-changing routes.
import fc from "fast-check";
import { expect } from "vitest";
import { app } from "../../../worker/app";
import { errorOf, isNorwegianMessage } from "../support/http";
import { stateChanges, storedState, type StoredState } from "../support/state";

/** Few runs: the machine is shared and each run is a real request (fast-check's seed is printed on failure). */
export const RUNS = { numRuns: 40 };

/** The three rules for one answer; returns the status. `before` given: a refusal must change nothing. */
export async function judge(res: Response, before?: StoredState): Promise<number> {
  expect(res.status, `no 5xx (${res.status})`).toBeLessThan(500);
  if (res.status >= 400) {
    const type = res.headers.get("Content-Type") ?? "";
    if (type.includes("application/json")) {
      const error = await errorOf(res);
      expect(isNorwegianMessage(error.message), `a Norwegian message: ${JSON.stringify(error.message)}`).toBe(true);
    } else {
      await res.arrayBuffer();
    }
    if (before) expect(stateChanges(before, await storedState())).toEqual([]);
  } else {
    await res.arrayBuffer();
  }
  return res.status;
}

// Text that breaks naive code: markup, quotes, SQL and FTS syntax, path tricks, control and
// combining characters, emoji, very long runs.
const nasty = fc.constantFrom(
  "",
  " ",
  '"',
  "'",
  "`",
  "<",
  ">",
  "&",
  "</script>",
  "<script>alert(1)</script>",
  "<!--",
  "]]>",
  '"><img src=x onerror=alert(1)>',
  "\\",
  "\\u003c",
  "%",
  "%00",
  "%2e%2e%2f",
  "../",
  "..\\",
  "/etc/passwd",
  "//evil.example",
  "https://evil.example",
  "javascript:alert(1)",
  "' OR 1=1 --",
  "'; DROP TABLE listings; --",
  "NEAR(",
  "title:",
  "*",
  "^",
  "\u0000",
  "\u0007",
  "\u202e",
  "\u2028",
  "\ufeff",
  "e\u0301",
  "😀",
  "👨‍👩‍👧",
  "日本語",
  "Ærlig øl på å",
  "x".repeat(5000),
  "-1",
  "1e309",
  "NaN",
  "Infinity",
  "0x10",
  "[]",
  "{}",
  "null",
  "true",
);
export const text = fc.oneof(
  nasty,
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.array(nasty, { maxLength: 4 }).map((p) => p.join("")),
);

/** Every state-changing API route the app registers, with its parameters filled in. */
export function mutatingRoutes(): { method: string; path: string }[] {
  const seen = new Set<string>();
  const out: { method: string; path: string }[] = [];
  for (const r of app.routes) {
    if (!["POST", "PUT", "PATCH", "DELETE"].includes(r.method) || !r.path.startsWith("/api/")) continue;
    const path = r.path
      .replace(/:key\{[^}]*\}/, "x/y.jpg")
      .replace(/:type/, "listing")
      .replace(/:direction/, "sent")
      .replace(/:[A-Za-z]+/g, () => crypto.randomUUID());
    const key = `${r.method} ${r.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ method: r.method, path });
  }
  return out;
}
