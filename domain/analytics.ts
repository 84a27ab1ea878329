// Analytics rules without I/O (docs/product.md "Data", "Server calls", "Limits and timings":
// constants and lists). Used by the Worker (validation, rollups) and by the browser tracker, which
// must stay small: nothing here imports zod (the schemas are in ./schemas/analytics.ts).

/** docs/product.md "Limits and timings": "event queue flushed every 5 seconds". */
export const ANALYTICS_FLUSH_MS = 5_000;
/** docs/product.md "Limits and timings": on a failed flush, if the queue holds fewer than 100 events, the last 50 are requeued. */
export const ANALYTICS_REQUEUE_BELOW = 100;
export const ANALYTICS_REQUEUE_KEEP = 50;
/** docs/product.md "Limits and timings": "Listing view re-sent after 30 seconds with viewDurationMs 30000". */
export const LISTING_VIEW_RESEND_MS = 30_000;
/** docs/product.md "Limits and timings": "scroll-depth report debounced 1 second". */
export const SCROLL_DEPTH_DEBOUNCE_MS = 1_000;
/** docs/product.md "Limits and timings": "a final view report on leaving only if the stay exceeded 5 seconds". */
export const LISTING_VIEW_FINAL_MIN_MS = 5_000;

/** Size caps on what the endpoints accept (each request becomes one queue message, ≤ 128 KB). */
export const ANALYTICS_MAX_EVENTS_PER_REQUEST = 50;
export const ANALYTICS_MAX_URL_CHARS = 2_048;
export const ANALYTICS_MAX_UA_CHARS = 512;
export const ANALYTICS_MAX_TEXT_CHARS = 200;
export const ANALYTICS_MAX_METADATA_KEYS = 20;
/** A view longer than a day is a tab left open; the server caps the reported duration here. */
export const LISTING_VIEW_MAX_MS = 24 * 60 * 60 * 1000;

/**
 * Seller statistics count at most this many views per analytics session, listing and day (decision
 * 038): a browser that reloads a listing, or a script reusing one session, cannot inflate them.
 */
export const ANALYTICS_VIEWS_PER_SESSION_LISTING_DAY = 2;
/** The server-issued analytics session (a signed cookie) lasts this long; the tracker asks for a new one after. */
export const ANALYTICS_SESSION_TTL_SECONDS = 24 * 60 * 60;

/** get_listing_analytics p_days_back: default 30 (docs/product.md "Server calls"), at most a year. */
export const LISTING_ANALYTICS_DEFAULT_DAYS = 30;
export const LISTING_ANALYTICS_MAX_DAYS = 365;

/** docs/product.md "Limits and timings", in that list's order. */
export const EVENT_TYPES = [
  "page_view",
  "listing_view",
  "profile_view",
  "click",
  "search",
  "filter",
  "message_send",
  "message_click",
  "trade_offer_send",
  "trade_offer_click",
  "form_start",
  "form_submit",
  "form_abandon",
  "image_view",
  "image_zoom",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const EVENT_CATEGORIES = ["navigation", "listing", "search", "messaging", "trade", "user", "form", "media", "error"] as const;
export type EventCategory = (typeof EVENT_CATEGORIES)[number];

export const DEVICE_TYPES = ["desktop", "mobile", "tablet"] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

/** Where a listing view came from (analytics-track-listing-view `referrerType`). */
export const REFERRER_TYPES = ["search", "home", "listing", "profile", "favourites", "internal", "external", "direct"] as const;
export type ReferrerType = (typeof REFERRER_TYPES)[number];

/** The category an event type belongs to, for the tracker's helpers. */
export const EVENT_CATEGORY_OF: Record<EventType, EventCategory> = {
  page_view: "navigation",
  listing_view: "listing",
  profile_view: "user",
  click: "navigation",
  search: "search",
  filter: "search",
  message_send: "messaging",
  message_click: "messaging",
  trade_offer_send: "trade",
  trade_offer_click: "trade",
  form_start: "form",
  form_submit: "form",
  form_abandon: "form",
  image_view: "media",
  image_zoom: "media",
};

export interface UserAgentInfo {
  deviceType: DeviceType;
  browser: string;
  os: string;
}

/**
 * Device type, browser and operating system from a user agent string (docs/product.md "Data").
 * `touchPoints` (navigator.maxTouchPoints) tells an iPad, which reports itself as a Mac
 * since iPadOS 13, from a Mac.
 */
export function parseUserAgent(ua: string, touchPoints = 0): UserAgentInfo {
  const os = osOf(ua, touchPoints);
  return { deviceType: deviceTypeOf(ua, os), browser: browserOf(ua), os };
}

function osOf(ua: string, touchPoints: number): string {
  if (/Windows Phone/i.test(ua)) return "Windows Phone";
  if (/Windows NT|Win64|Windows/i.test(ua)) return "Windows";
  if (/iPad/.test(ua)) return "iPadOS";
  if (/iPhone|iPod/.test(ua)) return "iOS";
  if (/Android/i.test(ua)) return "Android";
  if (/CrOS/.test(ua)) return "ChromeOS";
  if (/Macintosh|Mac OS X/.test(ua)) return touchPoints > 1 ? "iPadOS" : "macOS";
  if (/Linux|X11/.test(ua)) return "Linux";
  return "Other";
}

function deviceTypeOf(ua: string, os: string): DeviceType {
  if (os === "iPadOS" || /Tablet|PlayBook|Silk|Kindle/i.test(ua)) return "tablet";
  // Android phones say "Mobile"; Android tablets do not.
  if (os === "Android") return /Mobile/i.test(ua) ? "mobile" : "tablet";
  if (os === "iOS" || os === "Windows Phone" || /Mobi|Opera Mini/i.test(ua)) return "mobile";
  return "desktop";
}

function browserOf(ua: string): string {
  // Order matters: Edge, Opera and Samsung Internet also say "Chrome", Chrome also says "Safari".
  if (/Edg(e|A|iOS)?\//.test(ua)) return "Edge";
  if (/OPR\/|Opera/.test(ua)) return "Opera";
  if (/SamsungBrowser\//.test(ua)) return "Samsung Internet";
  if (/Firefox\/|FxiOS\//.test(ua)) return "Firefox";
  if (/Chrome\/|CriOS\/|Chromium\//.test(ua)) return "Chrome";
  if (/Safari\//.test(ua) && /Version\//.test(ua)) return "Safari";
  return "Other";
}

/**
 * Where a listing view came from: the previous page inside the app when there is one (single-page
 * navigation leaves document.referrer unchanged), else the document's referrer.
 */
export function referrerTypeOf(previousPath: string | null, documentReferrer: string, origin: string): ReferrerType {
  if (previousPath) return referrerTypeOfPath(previousPath.split(/[?#]/)[0]);
  if (!documentReferrer) return "direct";
  let ref: URL;
  try {
    ref = new URL(documentReferrer);
  } catch {
    return "direct";
  }
  if (ref.origin !== origin) return "external";
  return referrerTypeOfPath(ref.pathname);
}

function referrerTypeOfPath(path: string): ReferrerType {
  if (path === "/") return "home";
  if (path === "/search") return "search";
  if (path.startsWith("/annonse/") || path.startsWith("/listing/")) return "listing";
  if (path === "/profile" || path === "/min-profil" || path === "/my-listings") return "profile";
  if (path === "/favoritter") return "favourites";
  return "internal";
}

/** Query parameters of /search that describe a search; nothing else of a URL is kept. */
const SEARCH_PARAMS = ["q", "categories", "conditions", "ages", "min", "max", "free", "trade", "postal", "sort"] as const;

/** The search behind a page address: the text (`q`) and the filters, or null when it is not /search. */
export function searchContextOf(
  pathWithQuery: string | null,
): { searchQuery: string | null; filterContext: Record<string, string> | null } | null {
  if (!pathWithQuery) return null;
  const [path, query = ""] = pathWithQuery.split("#")[0].split("?");
  if (path !== "/search") return null;
  const params = new URLSearchParams(query);
  const filters: Record<string, string> = {};
  for (const key of SEARCH_PARAMS) {
    if (key === "q") continue;
    const value = params.getAll(key).join(",");
    if (value) filters[key] = value.slice(0, ANALYTICS_MAX_TEXT_CHARS);
  }
  const q = params.get("q")?.trim().slice(0, ANALYTICS_MAX_TEXT_CHARS) || null;
  return { searchQuery: q, filterContext: Object.keys(filters).length ? filters : null };
}

/**
 * The page address as analytics records it: path only, except the search parameters of /search.
 * Query strings elsewhere may carry one-time codes (/auth/callback?code=…) or other private data.
 */
export function analyticsPageUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "";
  }
  let out = parsed.origin + parsed.pathname;
  if (parsed.pathname === "/search") {
    const kept = new URLSearchParams();
    for (const key of SEARCH_PARAMS) for (const value of parsed.searchParams.getAll(key)) kept.append(key, value);
    const query = kept.toString();
    if (query) out += `?${query}`;
  }
  return out.slice(0, ANALYTICS_MAX_URL_CHARS);
}

/** A referrer from another site is kept as its origin only; our own pages as analyticsPageUrl. */
export function analyticsReferrer(referrer: string, origin: string): string {
  if (!referrer) return "";
  try {
    const ref = new URL(referrer);
    return ref.origin === origin ? analyticsPageUrl(referrer) : ref.origin;
  } catch {
    return "";
  }
}

/** R2 key of one consumer batch's raw events for one day (private bucket, partitioned by day). */
export function rawEventsKey(day: string, batchId: string): string {
  return `analytics/raw/day=${day}/${batchId}.ndjson`;
}
export const RAW_EVENTS_PREFIX = "analytics/raw/";
export const DEAD_LETTER_PREFIX = "analytics/dead-letter/";

/** What the Worker answers when analytics are refused. */
export const ANALYTICS_REFUSALS = {
  sessionMissing: "Analyseøkten mangler eller er utløpt. Last siden på nytt.", // 403
  listingNotFound: "Annonse ikke funnet", // 404
  statsNotFound: "Fant ikke statistikk for annonsen.", // 404, also to anyone who may not see them
} as const;
