// The security headers (docs/decisions/024-content-security-policy.md): their exact values on every
// kind of response the Worker sends, the static copy in public/_headers for /assets/*, and the
// hashes a shell with inline scripts (Vite's dev server) gets.
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import indexHtml from "../../index.html?raw";
import headersFile from "../../public/_headers?raw";
import fixtureShell from "./fixtures/assets/index.html?raw";
import type { Bindings } from "../../worker/env";
import { app } from "../../worker/app";
import {
  contentSecurityPolicy,
  inlineScriptHashes,
  PERMISSIONS_POLICY,
  securityHeaders,
  STRICT_TRANSPORT_SECURITY,
} from "../../worker/lib/security-headers";
import { allowConsoleError } from "./support/console-guard";
import { fetchShell } from "../../worker/features/shell/routes";
import { createListing } from "../factories";

const POLICY_WITHOUT_SHELL = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self' ws://localhost",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join("; ");

/**
 * The one inline script the shell carries (index.html's consent script; the fixture shell holds the
 * same bytes) and its sha256, computed here rather than by the code under test.
 */
const SHELL_SCRIPT = /<script>([^<]+)<\/script>/.exec(indexHtml)![1];
const SHELL_SCRIPT_HASH = btoa(
  String.fromCharCode(...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(SHELL_SCRIPT)))),
);
/** Every page that serves the shell allows exactly that script, by hash. */
const POLICY_FOR_SHELL = POLICY_WITHOUT_SHELL.replace("script-src 'self'", `script-src 'self' 'sha256-${SHELL_SCRIPT_HASH}'`);

const fetchWorker = (url: string, init?: RequestInit) => exports.default.fetch(new Request(url, init));

function expectSecurityHeaders(response: Response, csp: string) {
  expect(response.headers.get("Content-Security-Policy")).toBe(csp);
  expect(response.headers.get("Permissions-Policy")).toBe(PERMISSIONS_POLICY);
  expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
  expect(response.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
  expect(response.headers.get("X-Frame-Options")).toBe("DENY");
}

describe("security headers on every response", () => {
  it("the test shell carries index.html's consent script, byte for byte", () => {
    expect(SHELL_SCRIPT).toContain('localStorage.getItem("lb_consent")');
    expect(fixtureShell).toContain(`<script>${SHELL_SCRIPT}</script>`);
  });

  it.each([
    ["the home page", "/", 200],
    ["a login-required page", "/profile", 200],
    ["an unknown path (404 shell)", "/finnes-ikke", 404],
    ["a missing slug page", "/annonse/finnes-ikke-abc123", 404],
    ["an unknown public profile", "/bruker/finnes-ikke", 404],
  ])("%s (%s): the shell's consent script is allowed by its hash, and nothing else inline", async (_label, path, status) => {
    const response = await fetchWorker(`http://localhost${path}`, { headers: { Accept: "text/html" } });
    expect(response.status).toBe(status);
    expectSecurityHeaders(response, POLICY_FOR_SHELL);
    expect(await response.text()).toContain(`<script>${SHELL_SCRIPT}</script>`);
  });

  it.each([
    ["an API answer", "/api/home", 200],
    ["an API error", "/api/finnes-ikke", 404],
    ["a missing image", "/images/missing", 404],
    ["robots.txt", "/robots.txt", 200],
    ["a file path, passed to the asset server", "/favicon.svg", 200],
  ])("%s (%s): no inline script allowed", async (_label, path, status) => {
    const response = await fetchWorker(`http://localhost${path}`, { headers: { Accept: "text/html" } });
    expect(response.status).toBe(status);
    expectSecurityHeaders(response, POLICY_WITHOUT_SHELL);
    await response.arrayBuffer();
  });

  it("an edge-rendered slug page with its JSON-LD and preloaded listing allows only the shell's script", async () => {
    const listing = await createListing({ title: "Brio togbane </script><script>alert(1)</script>" });
    const response = await fetchWorker(`http://localhost/annonse/${listing.seoSlug}`);
    expect(response.status).toBe(200);
    expectSecurityHeaders(response, POLICY_FOR_SHELL);
    const html = await response.text();
    expect(html).toContain('<script type="application/ld+json">');
    expect(html).toContain('<script id="preloaded-listing" type="application/json">');
    expect(html).toContain(`<script>${SHELL_SCRIPT}</script>`);
  });

  it("a public profile page (edge-rendered) allows only the shell's script", async () => {
    const listing = await createListing({ title: "Brio togbane" });
    const response = await fetchWorker(`http://localhost/bruker/${listing.userId}`);
    expect(response.status).toBe(200);
    expectSecurityHeaders(response, POLICY_FOR_SHELL);
    await response.arrayBuffer();
  });

  it("allows the page's own WebSocket: wss: on https, ws: on http", async () => {
    const secure = await fetchWorker("https://lekebytte.example/", { headers: { Accept: "text/html" } });
    expect(secure.headers.get("Content-Security-Policy")).toContain("connect-src 'self' wss://lekebytte.example;");
    expect(secure.headers.get("Content-Security-Policy")).not.toContain("ws://");
    await secure.arrayBuffer();
    const local = await fetchWorker("http://127.0.0.1:8787/api/home");
    expect(local.headers.get("Content-Security-Policy")).toContain("connect-src 'self' ws://127.0.0.1:8787;");
    await local.arrayBuffer();
  });
});

/** Vite names every file under /assets/ by a hash of its content (decision 144). */
const ASSET_CACHE_CONTROL = "public, max-age=31536000, immutable";

describe("public/_headers (built assets bypass the Worker)", () => {
  it("gives /assets/* the Worker's headers (the policy without an origin) and a year's caching", () => {
    const lines = headersFile.split("\n").filter((line) => line.trim() !== "" && !line.trimStart().startsWith("#"));
    expect(lines[0]).toBe("/assets/*");
    const rules = lines.slice(1).map((line) => {
      expect(line).toMatch(/^ {2}\S/);
      const colon = line.indexOf(":");
      return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
    });
    expect(Object.fromEntries(rules)).toEqual({ ...securityHeaders({ production: true }), "Cache-Control": ASSET_CACHE_CONTROL });
  });

  it("includes HSTS for at least a year with subdomains", () => {
    const hsts = /^ {2}Strict-Transport-Security: (.+)$/m.exec(headersFile)?.[1];
    expect(hsts).toBe(STRICT_TRANSPORT_SECURITY);
    expect(Number(/max-age=(\d+)/.exec(hsts!)![1])).toBeGreaterThanOrEqual(365 * 24 * 3600);
    expect(hsts).toContain("includeSubDomains");
  });
});

describe("Strict-Transport-Security", () => {
  const production = {
    ...(env as Bindings),
    APP_ENV: "production",
    JWT_SECRET: "x".repeat(40),
    APP_ORIGIN: "https://lekebytte.example",
  } as Bindings;

  it.each([
    ["the home page", "/", 200],
    ["an API answer", "/api/home", 200],
    ["an API error", "/api/finnes-ikke", 404],
    ["a file passed to the asset server", "/favicon.svg", 200],
  ])("production sends it on %s", async (_label, path, status) => {
    const res = await app.fetch(new Request(`https://lekebytte.example${path}`, { headers: { Accept: "text/html" } }), production);
    expect(res.status).toBe(status);
    expect(res.headers.get("Strict-Transport-Security")).toBe(STRICT_TRANSPORT_SECURITY);
    await res.arrayBuffer();
  });

  it("production sends it on the refusal of a misconfigured deploy too", async () => {
    allowConsoleError("APP_ORIGIN");
    const res = await app.fetch(new Request("https://lekebytte.example/api/home"), {
      ...production,
      APP_ORIGIN: "http://localhost:8787",
    } as Bindings);
    expect(res.status).toBe(503);
    expect(res.headers.get("Strict-Transport-Security")).toBe(STRICT_TRANSPORT_SECURITY);
  });

  it("local mode (plain http) leaves it out", async () => {
    const res = await fetchWorker("http://localhost/api/home");
    expect(res.headers.get("Strict-Transport-Security")).toBeNull();
    await res.arrayBuffer();
  });

  it("is at least a year with subdomains", () => {
    expect(Number(/max-age=(\d+)/.exec(STRICT_TRANSPORT_SECURITY)![1])).toBeGreaterThanOrEqual(365 * 24 * 3600);
    expect(STRICT_TRANSPORT_SECURITY).toContain("includeSubDomains");
  });
});

describe("inline scripts in the shell", () => {
  it("hashes executable inline scripts only (not data blocks, not external scripts)", async () => {
    const html = `<html><head>
      <script>alert(1)</script>
      <script type="module">alert(1)</script>
      <script type="application/ld+json">{"@type":"Product"}</script>
      <script id="preloaded-listing" type="application/json">{"id":"x"}</script>
      <script type="module" src="/assets/index.js"></script>
    </head></html>`;
    // sha256("alert(1)") in base64, computed outside the Worker.
    const hash = "bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI=";
    expect(await inlineScriptHashes(html)).toEqual([hash, hash]);
    expect(await inlineScriptHashes('<script type="module" crossorigin src="/assets/index.js"></script>')).toEqual([]);
  });

  it("a shell with an inline script (Vite's dev server) is served with a policy that allows exactly it", async () => {
    const env = {
      ASSETS: {
        fetch: async () =>
          new Response(
            '<!doctype html><html><head><title>t</title><script>alert(1)</script></head><body><div id="root"></div></body></html>',
            {
              headers: { "Content-Type": "text/html" },
            },
          ),
      },
    } as unknown as Bindings;
    const shell = await fetchShell(env, new URL("http://localhost:5173/"));
    expect(shell.headers.get("Content-Security-Policy")).toBe(
      contentSecurityPolicy({ origin: "http://localhost:5173", scriptHashes: ["bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI="] }),
    );
    expect(shell.headers.get("Content-Security-Policy")).toContain(
      "script-src 'self' 'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI=';",
    );
    expect(await shell.text()).toContain("<script>alert(1)</script>");
  });

  it("a shell is decoded and hashed once per ETag: the same ETag reuses it, a new one (a new build) is read again", async () => {
    const shells = [
      ['<!doctype html><html><head><title>t</title><script>alert(1)</script></head><body>A<div id="root"></div></body></html>', '"eins"'],
      ['<!doctype html><html><head><title>t</title><script>alert(2)</script></head><body>B<div id="root"></div></body></html>', '"eins"'],
      ['<!doctype html><html><head><title>t</title><script>alert(3)</script></head><body>C<div id="root"></div></body></html>', '"zwei"'],
      ['<!doctype html><html><head><title>t</title><script>alert(4)</script></head><body>D<div id="root"></div></body></html>', null],
    ] as const;
    let served = 0;
    const env = {
      ASSETS: {
        fetch: async () => {
          const [html, etag] = shells[served++];
          return new Response(html, { headers: { "Content-Type": "text/html", ...(etag ? { ETag: etag } : {}) } });
        },
      },
    } as unknown as Bindings;
    const page = async () => {
      const shell = await fetchShell(env, new URL("http://localhost/"));
      return { body: await shell.text(), policy: shell.headers.get("Content-Security-Policy") ?? "" };
    };
    const [first, sameTag, newTag, noTag] = [await page(), await page(), await page(), await page()];
    expect(first.body).toContain("<body>A<div");
    // The asset server's ETag names its content: the same tag is the same shell.
    expect(sameTag).toEqual(first);
    expect(newTag.body).toContain("<body>C<div");
    expect(newTag.policy).toContain(`'sha256-${(await inlineScriptHashes(shells[2][0]))[0]}'`);
    expect(noTag.body).toContain("<body>D<div");
    expect(noTag.policy).toContain(`'sha256-${(await inlineScriptHashes(shells[3][0]))[0]}'`);
  });
});
