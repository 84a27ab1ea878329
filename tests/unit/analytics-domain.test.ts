// Analytics rules without I/O (domain/analytics.ts, domain/schemas/analytics.ts): user agents,
// referrer types, what of a URL is kept, and what the endpoints' schemas accept and refuse.
import { describe, expect, it } from "vitest";
import {
  analyticsPageUrl,
  analyticsReferrer,
  EVENT_CATEGORIES,
  EVENT_TYPES,
  parseUserAgent,
  referrerTypeOf,
  searchContextOf,
} from "../../domain/analytics";
import {
  analyticsEventsSchema,
  analyticsSessionSchema,
  listingAnalyticsQuerySchema,
  listingViewSchema,
} from "../../domain/schemas/analytics";

const UA = {
  iphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  iphoneChrome:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1",
  ipad: "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1",
  ipadDesktopMode: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
  androidPhone: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
  androidTablet: "Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
  samsung:
    "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
  windowsEdge:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.56",
  windowsChrome: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
  windowsOpera:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36 OPR/111.0.0.0",
  macFirefox: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0",
  linuxFirefox: "Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0",
  chromebook: "Mozilla/5.0 (X11; CrOS x86_64 15917.71.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
  kindle:
    "Mozilla/5.0 (Linux; Android 11; KFTRWI) AppleWebKit/537.36 (KHTML, like Gecko) Silk/126.1.1 like Chrome/126.0.6478.71 Safari/537.36",
  unknown: "curl/8.5.0",
};

describe("parseUserAgent", () => {
  it.each([
    ["iphone", 5, { deviceType: "mobile", browser: "Safari", os: "iOS" }],
    ["iphoneChrome", 5, { deviceType: "mobile", browser: "Chrome", os: "iOS" }],
    ["ipad", 5, { deviceType: "tablet", browser: "Safari", os: "iPadOS" }],
    ["ipadDesktopMode", 5, { deviceType: "tablet", browser: "Safari", os: "iPadOS" }],
    ["ipadDesktopMode", 0, { deviceType: "desktop", browser: "Safari", os: "macOS" }],
    ["androidPhone", 5, { deviceType: "mobile", browser: "Chrome", os: "Android" }],
    ["androidTablet", 5, { deviceType: "tablet", browser: "Chrome", os: "Android" }],
    ["samsung", 5, { deviceType: "mobile", browser: "Samsung Internet", os: "Android" }],
    ["windowsEdge", 0, { deviceType: "desktop", browser: "Edge", os: "Windows" }],
    ["windowsChrome", 0, { deviceType: "desktop", browser: "Chrome", os: "Windows" }],
    ["windowsOpera", 0, { deviceType: "desktop", browser: "Opera", os: "Windows" }],
    ["macFirefox", 0, { deviceType: "desktop", browser: "Firefox", os: "macOS" }],
    ["linuxFirefox", 0, { deviceType: "desktop", browser: "Firefox", os: "Linux" }],
    ["chromebook", 0, { deviceType: "desktop", browser: "Chrome", os: "ChromeOS" }],
    ["kindle", 5, { deviceType: "tablet", browser: "Chrome", os: "Android" }],
    ["unknown", 0, { deviceType: "desktop", browser: "Other", os: "Other" }],
  ] as const)("%s (touch points %d)", (name, touch, expected) => {
    expect(parseUserAgent(UA[name], touch)).toEqual(expected);
  });
});

describe("referrerTypeOf", () => {
  const origin = "https://lekebytte.no";
  it.each([
    ["/search?q=lego", "", "search"],
    ["/", "", "home"],
    ["/annonse/lego-abc123", "", "listing"],
    ["/listing/3f2a9c1e-7b4d-4e2a-9c3b-1234567890ab", "", "listing"],
    ["/my-listings", "", "profile"],
    ["/favoritter", "", "favourites"],
    ["/om-oss", "", "internal"],
    [null, "", "direct"],
    [null, "https://www.google.com/", "external"],
    [null, "https://lekebytte.no/search?q=bil", "search"],
    [null, "not a url", "direct"],
  ] as const)("previous %s, document.referrer %s → %s", (previous, referrer, expected) => {
    expect(referrerTypeOf(previous, referrer, origin)).toBe(expected);
  });
});

describe("what of an address analytics keeps", () => {
  it("keeps the path only, except the search parameters of /search", () => {
    expect(analyticsPageUrl("https://lekebytte.no/auth/callback?code=hemmelig")).toBe("https://lekebytte.no/auth/callback");
    expect(analyticsPageUrl("https://lekebytte.no/annonse/lego-abc?utm_source=x#bilder")).toBe("https://lekebytte.no/annonse/lego-abc");
    expect(analyticsPageUrl("https://lekebytte.no/search?q=lego&email=a%40b.no&categories=lego")).toBe(
      "https://lekebytte.no/search?q=lego&categories=lego",
    );
    expect(analyticsPageUrl("ikke en adresse")).toBe("");
  });

  it("keeps another site's referrer as its origin only", () => {
    expect(analyticsReferrer("https://www.facebook.com/groups/123?fbclid=x", "https://lekebytte.no")).toBe("https://www.facebook.com");
    expect(analyticsReferrer("https://lekebytte.no/auth/callback?code=x", "https://lekebytte.no")).toBe(
      "https://lekebytte.no/auth/callback",
    );
    expect(analyticsReferrer("", "https://lekebytte.no")).toBe("");
  });

  it("reads the search text and filters of a /search address", () => {
    expect(searchContextOf("/search?q=lego%20duplo&categories=lego,biler&free=true&foo=bar")).toEqual({
      searchQuery: "lego duplo",
      filterContext: { categories: "lego,biler", free: "true" },
    });
    expect(searchContextOf("/search")).toEqual({ searchQuery: null, filterContext: null });
    expect(searchContextOf("/annonse/x")).toBeNull();
    expect(searchContextOf(null)).toBeNull();
  });
});

const SESSION = "3f2a9c1e-7b4d-4e2a-9c3b-1234567890ab";
const meta = {
  sessionId: SESSION,
  timestamp: "2026-11-20T10:00:00.000Z",
  page: "/",
  userAgent: UA.iphone,
  referrer: null,
  pageUrl: "https://lekebytte.no/",
};
const event = (over: Record<string, unknown> = {}) => ({
  eventType: "page_view",
  eventCategory: "navigation",
  eventAction: "view",
  metadata: meta,
  ...over,
});

describe("analyticsEventsSchema", () => {
  it("accepts every event type and category of the spec", () => {
    for (const eventType of EVENT_TYPES) {
      for (const eventCategory of EVENT_CATEGORIES) {
        expect(analyticsEventsSchema.safeParse({ sessionId: SESSION, events: [event({ eventType, eventCategory })] }).success).toBe(true);
      }
    }
  });

  it.each([
    ["an unknown event type", { events: [event({ eventType: "purchase" })] }, "events.0.eventType", "Ukjent hendelsestype"],
    ["an unknown category", { events: [event({ eventCategory: "ads" })] }, "events.0.eventCategory", "Ukjent hendelseskategori"],
    ["no events", { events: [] }, "events", "Ingen hendelser"],
    ["51 events", { events: Array.from({ length: 51 }, () => event()) }, "events", "Høyst 50 hendelser per forespørsel"],
    [
      "a long label",
      { events: [event({ eventLabel: "x".repeat(201) })] },
      "events.0.eventLabel",
      "Teksten kan ikke være lengre enn 200 tegn",
    ],
    [
      "a long page URL",
      { events: [event({ metadata: { ...meta, pageUrl: "x".repeat(2049) } })] },
      "events.0.metadata.pageUrl",
      "Adressen er for lang",
    ],
    [
      "a bad timestamp",
      { events: [event({ metadata: { ...meta, timestamp: "i går" } })] },
      "events.0.metadata.timestamp",
      "Ugyldig tidspunkt",
    ],
    ["a bad session id", { sessionId: "abc" }, "sessionId", "Ugyldig økt-ID"],
    [
      "too many metadata fields",
      { events: [event({ metadata: { ...meta, ...Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i])) } })] },
      "events.0.metadata",
      "For mange felt i metadata",
    ],
    ["an object inside metadata", { events: [event({ metadata: { ...meta, nested: { a: 1 } } })] }, "events.0.metadata.nested", undefined],
  ])("refuses %s", (_name, override, path, message) => {
    const result = analyticsEventsSchema.safeParse({ sessionId: SESSION, events: [event()], ...override });
    expect(result.success).toBe(false);
    const issue = result.error!.issues.find((i) => i.path.join(".") === path);
    expect(issue, JSON.stringify(result.error!.issues)).toBeDefined();
    if (message) expect(issue!.message).toBe(message);
  });

  it("keeps flat extras in metadata and strips unknown keys elsewhere", () => {
    const parsed = analyticsEventsSchema.parse({
      sessionId: SESSION,
      userId: "someone",
      events: [event({ role: "admin", metadata: { ...meta, listingId: SESSION } })],
    });
    expect(parsed).not.toHaveProperty("userId");
    expect(parsed.events[0]).not.toHaveProperty("role");
    expect(parsed.events[0].metadata.listingId).toBe(SESSION);
  });
});

describe("listingViewSchema and analyticsSessionSchema", () => {
  const view = {
    sessionId: SESSION,
    viewId: "9b2a9c1e-7b4d-4e2a-9c3b-1234567890ab",
    listingId: "1a2a9c1e-7b4d-4e2a-9c3b-1234567890ab",
    referrerType: "search",
    searchQuery: "lego",
    filterContext: { categories: "lego" },
    scrollDepthPercent: 40,
    viewDurationMs: 30_000,
  };

  it("accepts a listing view and caps its duration at a day", () => {
    expect(listingViewSchema.parse(view).viewDurationMs).toBe(30_000);
    expect(listingViewSchema.parse({ ...view, viewDurationMs: 10 * 86_400_000 }).viewDurationMs).toBe(86_400_000);
  });

  it.each([
    ["scrollDepthPercent", 101],
    ["scrollDepthPercent", -1],
    ["viewDurationMs", -5],
    ["viewDurationMs", 1.5],
    ["referrerType", "newsletter"],
    ["listingId", "lego"],
  ])("refuses %s = %s", (key, value) => {
    expect(listingViewSchema.safeParse({ ...view, [key]: value }).success).toBe(false);
  });

  it("refuses an unknown device type", () => {
    const session = {
      sessionId: SESSION,
      userAgent: UA.iphone,
      referrer: "",
      entryPage: "/",
      deviceType: "mobile",
      browser: "Safari",
      os: "iOS",
    };
    expect(analyticsSessionSchema.parse(session).referrer).toBeNull();
    expect(analyticsSessionSchema.safeParse({ ...session, deviceType: "watch" }).success).toBe(false);
  });
});

describe("listingAnalyticsQuerySchema", () => {
  it.each([
    [{}, 30],
    [{ days: "7" }, 7],
    [{ days: "365" }, 365],
  ])("days %j → %d", (query, days) => {
    expect(listingAnalyticsQuerySchema.parse(query).days).toBe(days);
  });

  it.each(["0", "366", "2.5", "mange"])("refuses days=%s with a Norwegian message", (days) => {
    const result = listingAnalyticsQuerySchema.safeParse({ days });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0].message).toMatch(/^Antall dager må være/);
  });
});
