// The Worker's shared HTTP behaviour: the JSON error envelope, images from R2, and page statuses.
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ApiErrorBody } from "../../domain/errors";
import { createListing, createUser } from "../factories";
import { allowConsoleError, checkConsoleGuard, installConsoleGuard } from "./support/console-guard";

const fetchWorker = (path: string, init?: RequestInit) => exports.default.fetch(new Request(`http://localhost${path}`, init));

async function expectErrorEnvelope(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  const body = await response.json<ApiErrorBody>();
  expect(body).toEqual({ error: { code, message: expect.any(String) } });
  expect(body.error.message.length).toBeGreaterThan(0);
  // Never a stack trace or an English framework message.
  expect(JSON.stringify(body)).not.toMatch(/at \w+ \(|Error:|Not Found/);
  return body;
}

describe("unknown API paths", () => {
  it.each(["/api/finnes-ikke", "/api/listings/x/y/z", "/api/"])("GET %s → 404 JSON envelope", async (path) => {
    await expectErrorEnvelope(await fetchWorker(path), 404, "NOT_FOUND");
  });

  it("answers 404 JSON for other methods too", async () => {
    await expectErrorEnvelope(
      await fetchWorker("/api/finnes-ikke", {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: "http://localhost" },
        body: "{}",
      }),
      404,
      "NOT_FOUND",
    );
  });

  it("sets the security headers on errors", async () => {
    const response = await fetchWorker("/api/finnes-ikke");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });
});

describe("GET /images/{key}", () => {
  async function publicPhoto() {
    const owner = await createUser();
    const key = `${owner.id}/1700000000-abc.png`;
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    await env.IMAGES.put(key, bytes, { httpMetadata: { contentType: "image/png" } });
    await createListing({ userId: owner.id, images: [key] });
    return { key, bytes };
  }

  it("answers 404 JSON for a missing object", async () => {
    await expectErrorEnvelope(await fetchWorker("/images/missing"), 404, "NOT_FOUND");
    await expectErrorEnvelope(await fetchWorker(`/images/${crypto.randomUUID()}/missing.jpg`), 404, "NOT_FOUND");
  });

  it.each([
    ["truncated percent-encoding", "/images/%E0%A4%A"],
    ["a lone percent sign", "/images/%"],
    ["invalid UTF-8", "/images/%C3%28.jpg"],
    ["a key over 1,024 bytes", `/images/${crypto.randomUUID()}/${"a".repeat(1100)}.jpg`],
    ["a key over 1,024 bytes once decoded", `/images/${crypto.randomUUID()}/${"%C3%A6".repeat(520)}.jpg`],
    ["a very long path", `/images/${"%41".repeat(5000)}`],
  ])("answers 404, not 500, for %s", async (_name, path) => {
    await expectErrorEnvelope(await fetchWorker(path), 404, "NOT_FOUND");
  });

  it.each(["sitemaps/sitemap.xml", "sitemap.xml", "secret.txt", "analytics/2026-01-01/events.ndjson"])(
    "never serves %s, a key that is not a listing photo",
    async (key) => {
      await env.IMAGES.put(key, "privat");
      await env.PRIVATE.put(key, "privat");
      await expectErrorEnvelope(await fetchWorker(`/images/${key}`), 404, "NOT_FOUND");
    },
  );

  it("serves a listed photo with caching headers, and 304 for a matching If-None-Match", async () => {
    const { key, bytes } = await publicPhoto();
    const response = await fetchWorker(`/images/${key}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=3600");
    expect(response.headers.get("Content-Type")).toBe("image/png");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const etag = response.headers.get("ETag");
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);

    const revalidated = await fetchWorker(`/images/${key}`, { headers: { "If-None-Match": etag! } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("ETag")).toBe(etag);
    expect(revalidated.headers.get("Cache-Control")).toBe("public, max-age=3600");
    expect(await revalidated.text()).toBe("");

    const changed = await fetchWorker(`/images/${key}`, { headers: { "If-None-Match": '"something-else"' } });
    expect(changed.status).toBe(200);
    await changed.arrayBuffer();
  });
});

describe("page navigations (SPA shell from the ASSETS binding)", () => {
  // /annonse/{slug} is rendered by the SEO route (tests/worker/seo/seo.integration.test.ts), not here.
  it.each(["/", "/search", "/auth/callback", "/profile", "/om-oss"])("%s → 200 shell", async (path) => {
    const response = await fetchWorker(path, { headers: { Accept: "text/html" } });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<div id="root"');
  });

  it.each(["/finnes-ikke", "/listing", "/profile/extra/parts"])("unknown route %s → the shell with status 404", async (path) => {
    const response = await fetchWorker(path, { headers: { Accept: "text/html" } });
    expect(response.status).toBe(404);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(await response.text()).toContain('<div id="root"');
  });

  // The asset server sends a path it has no file for to the Worker (wrangler.toml, decision 164):
  // a build asset a page of the last deploy names, or any other missing file.
  it.each(["/assets/index-NotBuilt0.js", "/finnes-ikke.txt"])(
    "missing file %s → the shell with status 404, kept by no one",
    async (path) => {
      const response = await fetchWorker(path);
      expect(response.status).toBe(404);
      expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
      expect(response.headers.get("Cache-Control")).toBe("no-cache");
      expect(await response.text()).toContain('<div id="root"');
    },
  );
});

describe("unexpected errors", () => {
  it("become a logged 500 with the generic Norwegian message and no details", async () => {
    // The error line's fields are tests/worker/request-log.integration.test.ts's.
    const logged = allowConsoleError('"type":"error"');
    // A row the service cannot read (images is not JSON) makes /api/home throw inside the Worker.
    const listing = await createListing();
    await env.DB.prepare("UPDATE listings SET images = '{broken' WHERE id = ?1").bind(listing.id).run();
    try {
      const body = await expectErrorEnvelope(await fetchWorker("/api/home"), 500, "INTERNAL");
      expect(body.error.message).toBe("Noe gikk galt. Prøv igjen.");
      expect(JSON.stringify(body)).not.toMatch(/JSON|broken|SyntaxError/);
      expect(logged.calls().some((args) => String(args[0]).startsWith('{"type":"error"'))).toBe(true);
    } finally {
      await env.DB.prepare("DELETE FROM listings WHERE id = ?1").bind(listing.id).run();
    }
  });
});

describe("the console guard", () => {
  it("fails a test that logs console.error unexpectedly", () => {
    console.error("boom from a test");
    expect(() => checkConsoleGuard()).toThrow(/Unexpected console.error[\s\S]*boom from a test/);
    installConsoleGuard(); // re-arm for this test's own afterEach check
  });

  it("lets matching expected errors through and still fails on others", () => {
    allowConsoleError(/expected/);
    console.error("an expected failure");
    expect(() => checkConsoleGuard()).not.toThrow();
    installConsoleGuard();
    allowConsoleError("expected");
    console.error("something else");
    expect(() => checkConsoleGuard()).toThrow(/something else/);
    installConsoleGuard();
  });
});
