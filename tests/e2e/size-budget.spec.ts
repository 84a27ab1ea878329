// Performance budget: the JavaScript the home page loads before it is idle, gzipped, must stay under
// 120 KB (phones on slow networks come first).
import { gzipSync } from "node:zlib";
import { expect, test } from "./fixtures";

const BUDGET_BYTES = 120 * 1024;

// A first visit: no analytics choice yet, so the consent banner loads too.
test.use({ analyticsConsent: null });

test("home loads at most 120 KB of gzipped JavaScript before it is idle", async ({ page }, testInfo) => {
  const scripts = new Map<string, Promise<Buffer | null>>();
  page.on("response", (response) => {
    const type = response.headers()["content-type"] ?? "";
    const isScript = response.request().resourceType() === "script" || /javascript|ecmascript/.test(type);
    if (!isScript || scripts.has(response.url())) return;
    // Read the body now: it is gone once the page navigates or closes.
    scripts.set(
      response.url(),
      response.body().catch(() => null),
    );
  });

  await page.goto("/", { waitUntil: "load" });
  await page.waitForLoadState("networkidle");

  const rows: { url: string; raw: number; gzip: number }[] = [];
  for (const [url, body] of scripts) {
    const bytes = await body;
    if (!bytes) continue;
    // Default zlib level: close to what a CDN sends when it compresses on the fly.
    rows.push({ url: new URL(url).pathname, raw: bytes.length, gzip: gzipSync(bytes).length });
  }
  const total = rows.reduce((sum, r) => sum + r.gzip, 0);
  const raw = rows.reduce((sum, r) => sum + r.raw, 0);
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const report = [
    ...rows.sort((a, b) => b.gzip - a.gzip).map((r) => `  ${kb(r.gzip).padStart(9)} gz  ${kb(r.raw).padStart(9)} raw  ${r.url}`),
    `  ${kb(total).padStart(9)} gz  ${kb(raw).padStart(9)} raw  total (${rows.length} files, budget ${kb(BUDGET_BYTES)})`,
  ].join("\n");
  console.log(`JavaScript loaded by / before idle:\n${report}`);
  testInfo.annotations.push({ type: "size-budget", description: `${kb(total)} gzipped JS (budget ${kb(BUDGET_BYTES)})` });
  await testInfo.attach("js-size.txt", { body: report, contentType: "text/plain" });

  expect(rows.length, "the page loads JavaScript").toBeGreaterThan(0);
  expect(total, `gzipped JavaScript on /:\n${report}`).toBeLessThanOrEqual(BUDGET_BYTES);
});
