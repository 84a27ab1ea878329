// Cache-Control on every API answer that reads data: which answers are never stored
// (middleware/cache.ts `noStore`, `privateNoStore`, and `privateByDefault` for an answer that names
// none), and which a visitor gets from the edge cache (`public, no-cache` for browsers,
// middleware/edge-cache.ts, decision 101). One table (cache-control/cases.ts, its answers in
// cache-control/expected.ts), so a route that moves its header into or out of a middleware keeps
// exactly the answers it had.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { app } from "../../worker/app";
import { CASES, createCaseWorld } from "./cache-control/cases";
import { EXPECTED } from "./cache-control/expected";

beforeAll(createCaseWorld);

describe("Cache-Control", () => {
  it("every GET API route reading data is in the table", () => {
    // The sockets answer 101 or a refusal and are no data; the webhooks take no GET.
    const sockets = new Set(["GET /api/conversations/live", "GET /api/conversations/:id/live"]);
    const routes = new Set(app.routes.filter((r) => r.method === "GET" && r.path.startsWith("/api/")).map((r) => `${r.method} ${r.path}`));
    const covered = new Set(CASES.map((c) => c.route));
    expect([...routes].filter((r) => !covered.has(r) && !sockets.has(r))).toEqual([]);
  });

  it("each answer carries exactly its Cache-Control", async () => {
    const lines: string[] = [];
    for (const c of CASES) {
      const res = await c.as().request(c.path(), { method: c.method ?? "GET", json: c.json?.() });
      await res.body?.cancel();
      lines.push(`${c.route} (${c.name}): ${res.status} ${res.headers.get("Cache-Control") ?? "-"}`);
    }
    expect(lines.join("\n")).toBe(EXPECTED);
    expect(env.APP_ENV).toBe("local");
  });
});
