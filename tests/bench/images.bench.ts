// Image bytes on a phone (docs/decisions/123-photo-variants.md): starts the app exactly as
// `npm start` does (its own port and a fresh state directory without the demo data), uploads 50
// photo-sized pictures through the API as the web app would after scaling (1600×1200 JPEG at 0.82,
// ~320 KB each: tests/factories/real-size-photo.ts) and publishes one listing with each, then loads
// /search in Chromium at 390×844 CSS px, at 2× and 3×, and counts the image bytes the page receives
// until the network is idle: the budget is 400 KB. It also counts them after scrolling through all
// 50 cards, what the cards' uploaded photos would have been, and a listing page's photo bytes.
// Bytes are not times: the machine's load does not move them, but it is recorded all the same.
// Writes tests/bench/results/images.{md,json} and prints the table.
//
//   npm run bench:images     BENCH_PORT=8842, BENCH_SANDBOX_PORT (PORT + 30), BENCH_IMAGES_PHOTOS=50,
//                            CHROMIUM_PATH (else Debian's headless shell), SKIP_BUILD=1 (reuse dist/)
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { DEFAULT_CHROMIUM } from "../../scripts/chromium.mjs";
import { realSizePhoto } from "../factories/real-size-photo";
import { AppServer, BenchDb, ROOT, ensureBuild, freshState, mintAccessTokens } from "./support";

const server = AppServer.forBench("images", 8842);
const PHOTOS = Number(process.env.BENCH_IMAGES_PHOTOS ?? 50);
const CHROMIUM = process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM;
const BUDGET_BYTES = 400 * 1024;
const RESULTS = path.join(ROOT, "tests/bench/results");
/** Uploads per user stay under the upload limit (30 a minute) and listings under theirs (30 an hour). */
const PER_USER = 25;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The test photos, kept on disk between runs (keyed by the code that draws them). */
function photos(count: number): Uint8Array[] {
  const version = createHash("sha256");
  for (const f of [
    "tests/factories/real-size-photo.ts",
    "scripts/seed/images.ts",
    "scripts/seed/raster.ts",
    "scripts/seed/painter.ts",
    "scripts/seed/motifs-creative.ts",
    "scripts/seed/motifs-dolls.ts",
    "scripts/seed/motifs-games.ts",
    "scripts/seed/motifs-vehicles.ts",
  ]) {
    version.update(readFileSync(path.join(ROOT, f)));
  }
  const dir = path.join(ROOT, "node_modules/.cache/lekebytte-bench-photos", version.digest("hex").slice(0, 16));
  mkdirSync(dir, { recursive: true });
  return Array.from({ length: count }, (_, i) => {
    const file = path.join(dir, `${i}.jpg`);
    if (existsSync(file)) return new Uint8Array(readFileSync(file));
    const bytes = realSizePhoto(i);
    writeFileSync(file, bytes);
    return bytes;
  });
}

interface Published {
  key: string;
  slug: string;
  bytes: number;
}

/** Upload each photo and publish a listing with it, as the signed-in users (alternating). */
async function publish(photoBytes: Uint8Array[], cookies: string[]): Promise<Published[]> {
  const out: Published[] = [];
  for (const [i, photo] of photoBytes.entries()) {
    const headers = { Cookie: `lb_access=${cookies[Math.floor(i / PER_USER)]}`, Origin: server.origin };
    const upload = await fetch(`${server.base}/api/images`, {
      method: "POST",
      body: photo,
      headers: { ...headers, "Content-Type": "image/jpeg" },
    });
    if (upload.status !== 201) throw new Error(`upload ${i}: ${upload.status} ${await upload.text()}`);
    const { key } = (await upload.json()) as { key: string };
    const res = await fetch(`${server.base}/api/listings`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json" },
      body: JSON.stringify({
        title: `Lekebil nummer ${i + 1}`,
        description: "Lite brukt.",
        category: "biler",
        age_range: "3-5 år",
        condition_rating: 4,
        price: "150",
        is_free: false,
        is_trade_offer: false,
        postal_code: "0150",
        images: [key],
      }),
    });
    if (res.status !== 201) throw new Error(`listing ${i}: ${res.status} ${await res.text()}`);
    out.push({ key, slug: ((await res.json()) as { seo_slug: string }).seo_slug, bytes: photo.length });
  }
  return out;
}

interface Load {
  /** Image responses: path below /images/ → bytes on the wire (headers and body). */
  images: Map<string, number>;
  total: number;
  /** The bodies alone: over HTTP/2 and 3 the repeated headers shrink to a few bytes each. */
  bodies: number;
}

/** Open `path` in a fresh 390×844 context at `density` and sum the image bytes until the network is idle. */
async function load(browser: Browser, pathname: string, density: number, { scroll = false } = {}): Promise<Load> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: density,
    isMobile: true,
    hasTouch: true,
  });
  // The consent banner's choice made, as a returning visitor has it (web/analytics/consent.ts).
  await context.addInitScript({ content: 'window.localStorage.setItem("lb_consent", "necessary")' });
  const page = await context.newPage();
  const images = new Map<string, number>();
  let bodies = 0;
  const counted: Promise<void>[] = [];
  page.on("requestfinished", (request) => {
    if (request.resourceType() !== "image") return;
    counted.push(
      request.sizes().then((sizes) => {
        images.set(
          decodeURIComponent(new URL(request.url()).pathname).replace(/^\/images\//, ""),
          sizes.responseBodySize + sizes.responseHeadersSize,
        );
        bodies += sizes.responseBodySize;
      }),
    );
  });
  await page.goto(`${server.origin}${pathname}`, { waitUntil: "load" });
  await page.waitForLoadState("networkidle");
  if (scroll) {
    // Down the page a screen at a time, as a thumb does, so each card's photo is asked for on the way,
    // until every card's photo has loaded.
    for (let y = 0; y < Number(await page.evaluate("document.body.scrollHeight")); y += 600) {
      await page.evaluate(`window.scrollTo(0, ${y})`);
      await page.waitForTimeout(100);
    }
    // Polled from here: the page's CSP forbids the string evaluation waitForFunction needs.
    const allLoaded = "[...document.querySelectorAll('article img')].every((img) => img.complete)";
    for (const until = Date.now() + 60_000; !(await page.evaluate(allLoaded)) && Date.now() < until; ) await page.waitForTimeout(200);
    await page.waitForLoadState("networkidle");
  }
  await Promise.all(counted);
  await context.close();
  return { images, total: [...images.values()].reduce((a, b) => a + b, 0), bodies };
}

async function main(): Promise<void> {
  const machineLoad = os.loadavg()[0];
  // The page as the current code builds it (the cards' srcset and sizes are in the client code too).
  ensureBuild({ fresh: true });
  freshState(server.stateDir, { demoData: false });
  const db = new BenchDb(server.stateDir);
  const users = Array.from({ length: Math.ceil(PHOTOS / PER_USER) }, () => db.user("bilder"));
  db.close();
  const tokens = await mintAccessTokens(db.families);
  const cookies = users.map((u) => tokens.get(u.id) ?? "");

  console.log(`Tegner ${PHOTOS} bilder i bildestørrelse …`);
  const photoBytes = photos(PHOTOS);
  server.start();
  try {
    await server.waitUntilReady();
    console.log("Laster opp og publiserer …");
    const published = await publish(photoBytes, cookies);
    const original = new Map(published.map((p) => [p.key, p.bytes]));
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-background-networking"] });
    const rows: Record<string, unknown>[] = [];
    try {
      for (const density of [2, 3]) {
        const first = await load(browser, "/search", density);
        const scrolled = await load(browser, "/search", density, { scroll: true });
        const listing = await load(browser, `/annonse/${published[0].slug}`, density);
        // What the same cards would have cost as the uploaded photos (the page before its copies).
        const asUploaded = [...first.images.keys()].reduce((sum, p) => sum + (original.get(p.replace(/\/[^/]+\.webp$/, "")) ?? 0), 0);
        rows.push({
          density,
          searchImages: first.images.size,
          searchBytes: first.total,
          searchBodyBytes: first.bodies,
          withinBudget: first.total <= BUDGET_BYTES,
          searchCopies: [...new Set([...first.images.keys()].map((p) => p.split("/").pop()))],
          searchAsUploadedBytes: asUploaded,
          scrolledImages: scrolled.images.size,
          scrolledBytes: scrolled.total,
          listingImages: [...listing.images.keys()].map((p) => p.split("/").pop()),
          listingBytes: listing.total,
        });
      }
    } finally {
      await browser.close();
    }
    report(rows, machineLoad, photoBytes);
  } finally {
    await server.stop();
  }
}

function report(rows: Record<string, unknown>[], machineLoad: number, photoBytes: Uint8Array[]): void {
  const sizes = photoBytes.map((p) => p.length).sort((a, b) => a - b);
  const lines = [
    "# Image bytes on a 390 px phone (`npm run bench:images`)",
    "",
    `${new Date().toISOString()}, load average ${machineLoad.toFixed(2)} (bytes do not depend on it). ${PHOTOS} listings, one`,
    `photo each: 1600×1200 JPEG, ${kb(sizes[0])}–${kb(sizes[sizes.length - 1])} (median ${kb(sizes[Math.floor(sizes.length / 2)])}).`,
    `Budget: /search transfers at most ${kb(BUDGET_BYTES)} of images until the network is idle.`,
    "",
    "/search bytes are what Chromium received, headers included (HTTP/1.1 locally: about 1.3 KB of",
    "security headers each; over HTTP/2 and 3 they compress to a few bytes), the bodies alone beside them.",
    "",
    "| density | /search images | /search bytes (bodies) | budget | copies | the same cards as uploaded | after scrolling all 50 | listing page |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ...rows.map(
      (r) =>
        `| ${r.density}× | ${r.searchImages} | ${kb(r.searchBytes as number)} (${kb(r.searchBodyBytes as number)}) | ${r.withinBudget ? "met" : "**missed**"} | ${(r.searchCopies as string[]).join(", ")} | ${kb(r.searchAsUploadedBytes as number)} | ${r.scrolledImages} images, ${kb(r.scrolledBytes as number)} | ${(r.listingImages as string[]).join(", ")}, ${kb(r.listingBytes as number)} |`,
    ),
    "",
  ];
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(path.join(RESULTS, "images.md"), lines.join("\n"));
  writeFileSync(path.join(RESULTS, "images.json"), `${JSON.stringify({ machineLoad, photos: sizes, rows }, null, 2)}\n`);
  console.log(lines.join("\n"));
}

main().catch((error) => {
  console.error(error);
  console.error(server.logTail());
  process.exitCode = 1;
});
