// The browser tracker's rules (docs/product.md "Limits and timings"): the session, the 5-second flush and its requeue rule,
// page hide by sendBeacon, listing views (start, 30 s, scroll debounced 1 s, final only after 5 s),
// marked clicks, and stopping when consent is withdrawn.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SESSION_STORAGE_KEY, Tracker } from "../../web/analytics/tracker";

interface Call {
  path: string;
  body: Record<string, unknown>;
  beacon: boolean;
}

let calls: Call[];
let status: number | "network";
let beaconResult: boolean;
let tracker: Tracker | null;

const UUID = /^[0-9a-f-]{36}$/;

function bodyOf(init: RequestInit | undefined): Record<string, unknown> {
  return JSON.parse(String(init?.body)) as Record<string, unknown>;
}

beforeEach(() => {
  vi.useFakeTimers({ now: new Date("2026-11-20T10:00:00Z") });
  calls = [];
  status = 202;
  beaconResult = true;
  tracker = null;
  window.sessionStorage.clear();
  window.localStorage.clear();
  window.history.replaceState(null, "", "/annonse/lego-abc123?utm_source=nyhetsbrev");
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ path: url.replace("/api/analytics", ""), body: bodyOf(init), beacon: false });
      if (status === "network") throw new TypeError("Failed to fetch");
      return new Response(null, { status });
    }),
  );
  Object.defineProperty(navigator, "sendBeacon", {
    configurable: true,
    value: vi.fn((url: string, data: Blob) => {
      // Blob.text() is async; the tests read the body through a synchronous copy.
      calls.push({
        path: url.replace("/api/analytics", ""),
        body: (data as Blob & { json?: Record<string, unknown> }).json ?? {},
        beacon: true,
      });
      return beaconResult;
    }),
  });
  // jsdom's Blob cannot be read synchronously: keep the JSON beside it.
  const RealBlob = globalThis.Blob;
  vi.stubGlobal(
    "Blob",
    class extends RealBlob {
      json: Record<string, unknown>;
      constructor(parts: BlobPart[], options?: BlobPropertyBag) {
        super(parts, options);
        this.json = JSON.parse(String(parts[0])) as Record<string, unknown>;
      }
    },
  );
  vi.spyOn(console, "warn").mockImplementation(() => {});
});

afterEach(() => {
  tracker?.stop();
  vi.useRealTimers();
});

const start = () => {
  tracker = new Tracker();
  return tracker;
};
const posted = (path: string) => calls.filter((c) => c.path === path);
const eventsSent = () => posted("/events").flatMap((c) => c.body.events as Record<string, unknown>[]);

describe("the session", () => {
  it("is created once per tab with device, browser, OS and the entry page, and its id is kept in sessionStorage", async () => {
    const t = start();
    await vi.advanceTimersByTimeAsync(0);
    expect(t.sessionId).toMatch(UUID);
    expect(window.sessionStorage.getItem(SESSION_STORAGE_KEY)).toBe(t.sessionId);
    expect(posted("/sessions")).toHaveLength(1);
    expect(posted("/sessions")[0].body).toMatchObject({
      sessionId: t.sessionId,
      entryPage: "http://localhost:3000/annonse/lego-abc123",
      deviceType: expect.stringMatching(/^(desktop|mobile|tablet)$/),
      browser: expect.any(String),
      os: expect.any(String),
    });

    t.stop();
    tracker = null;
    window.sessionStorage.setItem(SESSION_STORAGE_KEY, "11111111-2222-4333-8444-555555555555");
    const again = start();
    await vi.advanceTimersByTimeAsync(0);
    expect(again.sessionId).toBe("11111111-2222-4333-8444-555555555555");
    expect(posted("/sessions")).toHaveLength(1);
  });
});

describe("the server-issued session (decision 038)", () => {
  const context = {
    listingId: "1a2a9c1e-7b4d-4e2a-9c3b-1234567890ab",
    referrerType: "direct" as const,
    searchQuery: null,
    filterContext: null,
  };

  it("sends nothing else until POST /sessions has answered (its cookie is what the server counts under)", async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const plain = vi.mocked(fetch).getMockImplementation()!;
    vi.mocked(fetch).mockImplementation(async (url, init) => {
      if (String(url).endsWith("/sessions")) {
        calls.push({ path: "/sessions", body: bodyOf(init), beacon: false });
        await answered;
        return new Response(null, { status: 202 });
      }
      return plain(url, init);
    });
    const t = start();
    t.startListingView(context);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.map((c) => c.path)).toEqual(["/sessions"]);
    answer();
    await vi.advanceTimersByTimeAsync(0);
    expect(posted("/listing-views")).toHaveLength(1);
  });

  it("asks for a new session once when the server no longer knows it (403), then sends again", async () => {
    window.sessionStorage.setItem(SESSION_STORAGE_KEY, "11111111-2222-4333-8444-555555555555");
    let refuse = true;
    const plain = vi.mocked(fetch).getMockImplementation()!;
    vi.mocked(fetch).mockImplementation(async (url, init) => {
      if (String(url).endsWith("/listing-views") && refuse) {
        refuse = false;
        calls.push({ path: "/listing-views", body: bodyOf(init), beacon: false });
        return new Response(null, { status: 403 });
      }
      return plain(url, init);
    });
    const t = start();
    t.startListingView(context);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.map((c) => c.path)).toEqual(["/listing-views", "/sessions", "/listing-views"]);
    expect(posted("/sessions")[0].body.sessionId).toBe("11111111-2222-4333-8444-555555555555");
  });
});

describe("the event queue", () => {
  it("is flushed every 5 seconds with the spec's metadata, and not before", async () => {
    const t = start();
    t.event("page_view", "view", "/");
    t.event("image_view", "view", "bilde 2", 2);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(posted("/events")).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(posted("/events")).toHaveLength(1);
    const [first, second] = eventsSent();
    expect(first).toMatchObject({ eventType: "page_view", eventCategory: "navigation", eventAction: "view", eventLabel: "/" });
    expect(second).toMatchObject({ eventType: "image_view", eventCategory: "media", eventValue: 2 });
    expect(first.metadata).toEqual({
      sessionId: t.sessionId,
      timestamp: "2026-11-20T10:00:00.000Z",
      page: "/annonse/lego-abc123",
      userAgent: navigator.userAgent,
      referrer: null,
      // Query strings are not kept outside /search.
      pageUrl: "http://localhost:3000/annonse/lego-abc123",
    });
    expect(t.pending).toHaveLength(0);
  });

  it("sends at most 50 events per request", async () => {
    const t = start();
    for (let i = 0; i < 120; i++) t.event("click", "click", `k${i}`);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(posted("/events").map((c) => (c.body.events as unknown[]).length)).toEqual([50, 50, 20]);
  });

  it("requeues the last 50 of the unsent events when a flush fails and fewer than 100 are queued", async () => {
    const t = start();
    status = "network";
    // The 50th event starts a flush at once (a full request); it fails too.
    for (let i = 0; i < 80; i++) t.event("click", "click", `k${i}`);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(t.pending.map((e) => e.eventLabel)).toEqual(Array.from({ length: 50 }, (_, i) => `k${i + 30}`));

    status = 202;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(t.pending).toHaveLength(0);
    expect(
      eventsSent()
        .slice(-50)
        .map((e) => e.eventLabel),
    ).toEqual(Array.from({ length: 50 }, (_, i) => `k${i + 30}`));
  });

  it("drops the failed events when 100 or more have been queued meanwhile", async () => {
    const t = start();
    t.event("click", "click", "gammel");
    let release: (() => void) | undefined;
    vi.mocked(fetch).mockImplementationOnce(async (url, init) => {
      calls.push({ path: String(url).replace("/api/analytics", ""), body: bodyOf(init), beacon: false });
      await new Promise<void>((resolve) => (release = resolve));
      throw new TypeError("Failed to fetch");
    });
    await vi.advanceTimersByTimeAsync(5_000);
    for (let i = 0; i < 100; i++) t.event("click", "click", `ny${i}`);
    release?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(t.pending).toHaveLength(100);
    expect(t.pending.some((e) => e.eventLabel === "gammel")).toBe(false);
  });

  it.each([500, 503, 429])("requeues after HTTP %d", async (code) => {
    const t = start();
    t.event("click", "click", "x");
    status = code;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(t.pending).toHaveLength(1);
  });

  it("drops events the server refuses as invalid (400) instead of sending them forever", async () => {
    const t = start();
    t.event("click", "click", "x");
    status = 400;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(t.pending).toHaveLength(0);
  });

  it("is sent by sendBeacon when the page is hidden", async () => {
    const t = start();
    await vi.advanceTimersByTimeAsync(0); // the session is answered
    t.event("page_view", "view", "/");
    window.dispatchEvent(new Event("pagehide"));
    const beacons = calls.filter((c) => c.beacon && c.path === "/events");
    expect(beacons).toHaveLength(1);
    expect((beacons[0].body.events as unknown[]).length).toBe(1);
    expect(t.pending).toHaveLength(0);
  });

  it("falls back to a keepalive fetch when the browser refuses the beacon", async () => {
    const t = start();
    t.event("page_view", "view", "/");
    beaconResult = false;
    window.dispatchEvent(new Event("pagehide"));
    await vi.advanceTimersByTimeAsync(0);
    const keepalive = vi.mocked(fetch).mock.calls.find(([url]) => String(url).endsWith("/events"));
    expect(keepalive?.[1]?.keepalive).toBe(true);
  });
});

describe("listing views", () => {
  const context = {
    listingId: "1a2a9c1e-7b4d-4e2a-9c3b-1234567890ab",
    referrerType: "search" as const,
    searchQuery: "lego",
    filterContext: { free: "true" },
  };

  it("reports at the start and again after 30 s with viewDurationMs 30000, under one view id", async () => {
    const t = start();
    t.startListingView(context);
    await vi.advanceTimersByTimeAsync(0);
    expect(posted("/listing-views")).toHaveLength(1);
    expect(posted("/listing-views")[0].body).toMatchObject({
      ...context,
      sessionId: t.sessionId,
      viewDurationMs: 0,
      viewId: expect.stringMatching(UUID),
    });
    await vi.advanceTimersByTimeAsync(30_000);
    const reports = posted("/listing-views");
    expect(reports).toHaveLength(2);
    expect(reports[1].body.viewDurationMs).toBe(30_000);
    expect(reports[1].body.viewId).toBe(reports[0].body.viewId);
    expect(eventsSent().some((e) => e.eventType === "listing_view")).toBe(true);
  });

  it("reports scroll depth once per pause of 1 second", async () => {
    const t = start();
    t.startListingView(context);
    await vi.advanceTimersByTimeAsync(0);
    for (let i = 0; i < 5; i++) {
      window.dispatchEvent(new Event("scroll"));
      await vi.advanceTimersByTimeAsync(300);
    }
    expect(posted("/listing-views")).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(posted("/listing-views")).toHaveLength(2);
    expect(posted("/listing-views")[1].body.scrollDepthPercent).toEqual(expect.any(Number));
  });

  it("sends a final report on leaving only after more than 5 seconds", async () => {
    const t = start();
    const short = t.startListingView(context);
    await vi.advanceTimersByTimeAsync(5_000);
    short.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(posted("/listing-views")).toHaveLength(1);

    const long = t.startListingView(context);
    await vi.advanceTimersByTimeAsync(5_001);
    long.end();
    await vi.advanceTimersByTimeAsync(60_000);
    const reports = posted("/listing-views").slice(1);
    expect(reports.map((r) => r.body.viewDurationMs)).toEqual([0, 5_001]);
  });

  it("reports by beacon when the page is hidden, and does not count hidden time", async () => {
    const t = start();
    const view = t.startListingView(context);
    await vi.advanceTimersByTimeAsync(8_000);
    Object.defineProperty(document, "visibilityState", { configurable: true, value: "hidden" });
    document.dispatchEvent(new Event("visibilitychange"));
    const beacon = calls.find((c) => c.beacon && c.path === "/listing-views");
    expect(beacon?.body.viewDurationMs).toBe(8_000);
    await vi.advanceTimersByTimeAsync(60_000);
    Object.defineProperty(document, "visibilityState", { configurable: true, value: "visible" });
    document.dispatchEvent(new Event("visibilitychange"));
    await vi.advanceTimersByTimeAsync(2_000);
    view.end();
    await vi.advanceTimersByTimeAsync(0);
    const last = posted("/listing-views").at(-1);
    expect(last?.body.viewDurationMs).toBe(10_000);
  });
});

describe("marked clicks and stopping", () => {
  it("queues a click on a data-analytics element with its listing", async () => {
    const t = start();
    const button = document.createElement("button");
    button.dataset.analytics = "message_click";
    button.dataset.analyticsListing = "1a2a9c1e-7b4d-4e2a-9c3b-1234567890ab";
    button.innerHTML = "<span>Send melding</span>";
    document.body.append(button);
    button.querySelector("span")!.click();
    expect(t.pending.at(-1)).toMatchObject({ eventType: "message_click", eventCategory: "messaging", eventAction: "click" });
    expect(t.pending.at(-1)?.metadata.listingId).toBe("1a2a9c1e-7b4d-4e2a-9c3b-1234567890ab");
    button.dataset.analytics = "purchase";
    button.click();
    expect(t.pending).toHaveLength(1);
    button.remove();
  });

  it("stops flushing, forgets the queue and removes the session id", async () => {
    const t = start();
    await vi.advanceTimersByTimeAsync(0);
    t.event("page_view", "view", "/");
    t.startListingView({
      listingId: "1a2a9c1e-7b4d-4e2a-9c3b-1234567890ab",
      referrerType: "direct",
      searchQuery: null,
      filterContext: null,
    });
    t.stop();
    tracker = null;
    const before = calls.length;
    await vi.advanceTimersByTimeAsync(60_000);
    window.dispatchEvent(new Event("pagehide"));
    expect(calls.length).toBe(before);
    expect(window.sessionStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it("withdrawing consent deletes the server's session cookie at once", () => {
    document.cookie = "lb_analytics=3f2a9c1e-7b4d-4e2a-9c3b-1234567890ab.1999999999.sig; Path=/";
    const t = start();
    expect(document.cookie).toContain("lb_analytics=");
    t.stop();
    tracker = null;
    expect(document.cookie).not.toContain("lb_analytics=");
  });
});
