// One structured JSON line per request and one per unexpected error, under the request id that the
// answer carries in X-Request-Id (docs/decisions/133-request-logs.md): the line's fields, the route
// pattern (never the raw URL), the request's own D1 statements, the hashed user, the id from cf-ray
// or made locally, and an unknown error logged with its stack, kept for /admin/drift and answered
// with a page that shows the id.
import { env, exports } from "cloudflare:workers";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createListing, createUser, signedInClient } from "../factories";
import type { AppEnv } from "../../worker/env";
import { handleAppError } from "../../worker/lib/error-response";
import type { ErrorLine, RequestLine } from "../../worker/lib/request-log";
import { traceRequest } from "../../worker/middleware/request-trace";
import { allowConsoleError } from "./support/console-guard";
import { Client } from "./support/http";

const HEX16 = /^[0-9a-f]{16}$/;

let logged: string[] = [];
let logSpy: { mockRestore(): void } | undefined;
beforeEach(() => {
  logged = [];
  logSpy = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
    logged.push(args.map(String).join(" "));
  });
});
afterEach(() => logSpy?.mockRestore());

/** The request lines logged so far. */
const requestLines = () => logged.filter((l) => l.startsWith('{"type":"request"')).map((l) => JSON.parse(l) as RequestLine);

/** The one request line of the answer `res` (by its X-Request-Id). */
function lineOf(res: Response): RequestLine {
  const id = res.headers.get("X-Request-Id");
  const lines = requestLines().filter((l) => l.request_id === id);
  expect(lines, `one request line for ${id}`).toHaveLength(1);
  return lines[0];
}

const get = (path: string, init: RequestInit = {}) => exports.default.fetch(new Request(`http://localhost${path}`, init));

describe("the request line", () => {
  it("has method, route pattern, status, duration, CPU, D1 statements and the request id of the header", async () => {
    const listing = await createListing();
    const res = await get(`/api/listings/${listing.id}?utm_source=nyhetsbrev`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const line = lineOf(res);
    expect(line).toEqual({
      type: "request",
      request_id: expect.stringMatching(HEX16),
      method: "GET",
      route: "/api/listings/:id",
      status: 200,
      duration_ms: expect.any(Number),
      // Not measured: deployed, the runtime's clock stands still while our code runs.
      cpu_ms: null,
      d1_round_trips: expect.any(Number),
      d1_statements: expect.any(Number),
      d1_rows_read: expect.any(Number),
      d1_rows_written: 0,
      user: null,
      error_code: null,
    });
    expect(line.duration_ms).toBeGreaterThanOrEqual(0);
    expect(line.d1_statements).toBeGreaterThan(0);
    expect(line.d1_round_trips).toBeGreaterThan(0);
    expect(line.d1_round_trips).toBeLessThanOrEqual(line.d1_statements);
    expect(JSON.stringify(line)).not.toContain(listing.id);
  });

  it("counts only the request's own D1 statements, also while others run beside it", async () => {
    const user = await createUser();
    const client = await signedInClient(user.id);
    const listing = await createListing({ userId: user.id });
    // Signed in, so nothing comes from the edge cache: each answer asks D1 the same every time.
    const paths = ["/api/me", `/api/me/listings/${listing.id}`, "/api/favourites/ids", "/api/conversations/unread-count"];
    const alone: Record<string, number> = {};
    for (const path of paths) alone[path] = lineOf(await client.get(path)).d1_statements;
    const together = await Promise.all(paths.map((path) => client.get(path)));
    expect(Object.fromEntries(paths.map((path, i) => [path, lineOf(together[i]).d1_statements]))).toEqual(alone);
  });

  it("names the route behind an edge-cache hit, which asks D1 nothing", async () => {
    const listing = await createListing();
    await (await get(`/api/listings/${listing.id}`)).arrayBuffer();
    const hit = await get(`/api/listings/${listing.id}`);
    expect(hit.headers.get("X-Edge-Cache")).toBe("HIT");
    expect(lineOf(hit)).toMatchObject({ route: "/api/listings/:id", d1_statements: 0 });
  });

  it.each([
    ["/om-oss", "/om-oss"],
    ["/bruker/00000000-0000-4000-8000-000000000000", "/bruker/:id"],
    ["/finnes-ikke/her", "/*"],
    ["/api/finnes-ikke", "/api/*"],
  ])("names %s by its pattern %s", async (path, route) => {
    const res = await get(path, { headers: { Accept: "text/html" } });
    await res.arrayBuffer();
    expect(lineOf(res).route).toBe(route);
  });

  it("carries the signed-in user as a keyed hash: the same for the same user, never the id or e-mail", async () => {
    const [one, two] = [await createUser(), await createUser()];
    const [a, b] = [await signedInClient(one.id), await signedInClient(two.id)];
    const first = lineOf(await a.get("/api/me"));
    const again = lineOf(await a.get("/api/favourites/ids"));
    const other = lineOf(await b.get("/api/me"));
    expect(first.user).toMatch(HEX16);
    expect(again.user).toBe(first.user);
    expect(other.user).toMatch(HEX16);
    expect(other.user).not.toBe(first.user);
    for (const line of [first, again]) {
      const text = JSON.stringify(line);
      expect(text).not.toContain(one.id);
      expect(text).not.toContain(one.email);
    }
  });

  it("names the error code of a refusal", async () => {
    const res = await new Client().get("/api/me");
    expect(res.status).toBe(401);
    expect(lineOf(res)).toMatchObject({ status: 401, error_code: "UNAUTHENTICATED", route: "/api/me" });
  });

  it("has our Worker's own time where it is measured (the load benchmark's header, local mode)", async () => {
    const res = await get("/api/config", { headers: { "X-Local-Worker-Time": "1" } });
    await res.arrayBuffer();
    const measured = Number(res.headers.get("X-Local-Worker-Ms"));
    expect(lineOf(res).cpu_ms).toBe(measured);
  });
});

describe("the request id", () => {
  it("is Cloudflare's ray id when the request has one", async () => {
    const res = await get("/api/config", { headers: { "cf-ray": "8f1c2d3e4a5b6c7d-OSL" } });
    expect(res.headers.get("X-Request-Id")).toBe("8f1c2d3e4a5b6c7d-OSL");
    expect(lineOf(res).request_id).toBe("8f1c2d3e4a5b6c7d-OSL");
  });

  it("is made locally, one per request, when there is none or it is not a ray id", async () => {
    const ids = new Set<string>();
    for (const ray of [undefined, "<script>alert(1)</script>", "8f1c2d3e4a5b6c7d-OSL; x=1"]) {
      const res = await get("/api/config", ray === undefined ? {} : { headers: { "cf-ray": ray } });
      const id = res.headers.get("X-Request-Id");
      expect(id).toMatch(HEX16);
      ids.add(id!);
    }
    expect(ids.size).toBe(3);
  });

  it("is on every answer: pages, photos that do not exist, refusals", async () => {
    for (const path of ["/", "/images/ukjent/bilde.webp", "/api/me"]) {
      const res = await get(path, { headers: { Accept: "text/html" } });
      await res.arrayBuffer();
      expect(res.headers.get("X-Request-Id"), path).toMatch(HEX16);
    }
  });
});

/** A listing row the home page cannot read (images is not JSON): /api/home throws inside the Worker. */
async function brokenListing() {
  const listing = await createListing();
  await env.DB.prepare("UPDATE listings SET images = '{broken' WHERE id = ?1").bind(listing.id).run();
  return listing;
}

describe("an unexpected error", () => {
  it("is logged with its stack under the request id, kept for /admin/drift, and answered 500 without details", async () => {
    const errors = allowConsoleError('"type":"error"');
    const listing = await brokenListing();
    try {
      const res = await get("/api/home");
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: { code: "INTERNAL", message: "Noe gikk galt. Prøv igjen." } });
      const id = res.headers.get("X-Request-Id")!;
      const lines = errors.calls().map((args) => JSON.parse(String(args[0])) as ErrorLine);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        type: "error",
        request_id: id,
        method: "GET",
        route: "/api/home",
        status: 500,
        name: "SyntaxError",
      });
      expect(lines[0].stack).toMatch(/SyntaxError[\s\S]*\n\s+at /);
      expect(lineOf(res)).toMatchObject({ status: 500, error_code: "INTERNAL" });
      // Kept after the answer (waitUntil).
      await vi.waitFor(
        async () =>
          expect(await env.DB.prepare("SELECT route, status, name FROM request_errors WHERE request_id = ?1").bind(id).first()).toEqual({
            route: "/api/home",
            status: 500,
            name: "SyntaxError",
          }),
        { timeout: 5000 },
      );
    } finally {
      await env.DB.prepare("DELETE FROM listings WHERE id = ?1").bind(listing.id).run();
    }
  });

  it("on a page a browser navigated to is a page that shows the request id as Feilkode", async () => {
    allowConsoleError('"type":"error"');
    const listing = await brokenListing();
    try {
      const res = await get("/", { headers: { Accept: "text/html" } });
      expect(res.status).toBe(500);
      expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
      expect(res.headers.get("Cache-Control")).toBe("private, no-store");
      const html = await res.text();
      expect(html).toContain("<h1>Noe gikk galt</h1>");
      expect(html).toContain(`Feilkode: ${res.headers.get("X-Request-Id")}`);
      expect(html).not.toMatch(/SyntaxError|broken/);
    } finally {
      await env.DB.prepare("DELETE FROM listings WHERE id = ?1").bind(listing.id).run();
    }
  });

  it("an HTTPException the app does not know is logged, not swallowed into a silent 500", async () => {
    const errors = allowConsoleError('"type":"error"');
    // The app's own error handler and request middleware in front of a route that throws one.
    const probe = new Hono<AppEnv>()
      .use(traceRequest)
      .get("/probe", () => {
        throw new HTTPException(503, { message: "upstream gave up" });
      })
      .get("/known", () => {
        throw new HTTPException(400, { message: "Malformed JSON in request body" });
      });
    probe.onError(handleAppError);
    const res = await probe.request("/probe", {}, env);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: { code: "INTERNAL", message: "Noe gikk galt. Prøv igjen." } });
    const lines = errors.calls().map((args) => JSON.parse(String(args[0])) as ErrorLine);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      request_id: res.headers.get("X-Request-Id"),
      route: "/probe",
      name: "Error",
      message: "upstream gave up",
    });
    expect(lines[0].stack).toContain("upstream gave up");
    // Hono's own refusal of a bad body stays the 400 it is, and is no error of ours.
    const known = await probe.request("/known", {}, env);
    expect(known.status).toBe(400);
    expect(errors.calls()).toHaveLength(1);
  });
});
