// Request bodies of the analytics endpoints (docs/product.md "Server calls": analytics-create-session,
// analytics-track-events, analytics-track-listing-view, analytics-track-search) and the queue
// message the Worker makes of each request. Unknown keys are stripped, every string is capped.
import { z } from "./zod";
import {
  ANALYTICS_MAX_EVENTS_PER_REQUEST,
  ANALYTICS_MAX_METADATA_KEYS,
  ANALYTICS_MAX_TEXT_CHARS,
  ANALYTICS_MAX_UA_CHARS,
  ANALYTICS_MAX_URL_CHARS,
  DEVICE_TYPES,
  EVENT_CATEGORIES,
  EVENT_TYPES,
  LISTING_ANALYTICS_DEFAULT_DAYS,
  LISTING_ANALYTICS_MAX_DAYS,
  LISTING_VIEW_MAX_MS,
  REFERRER_TYPES,
} from "../analytics";

const sessionId = z.uuid({ error: "Ugyldig økt-ID" });
const url = z.string().max(ANALYTICS_MAX_URL_CHARS, "Adressen er for lang");
const text = z.string().max(ANALYTICS_MAX_TEXT_CHARS, `Teksten kan ikke være lengre enn ${ANALYTICS_MAX_TEXT_CHARS} tegn`);
const userAgent = z.string().max(ANALYTICS_MAX_UA_CHARS, "Brukeragenten er for lang");
const primitive = z.union([text, z.number().finite(), z.boolean(), z.null()]);

/** A small flat map (filters, extra event data): at most 20 keys of at most 40 characters. */
function smallRecord<T extends z.ZodType>(value: T) {
  return z
    .record(z.string().min(1).max(40, "Nøkkelen er for lang"), value)
    .refine((r) => Object.keys(r).length <= ANALYTICS_MAX_METADATA_KEYS, `Høyst ${ANALYTICS_MAX_METADATA_KEYS} felt`);
}

/** analytics-create-session: the session fields of docs/product.md "Data". */
export const analyticsSessionSchema = z.object({
  sessionId,
  userAgent,
  referrer: url.nullish().transform((v) => v || null),
  entryPage: url,
  deviceType: z.enum(DEVICE_TYPES, { error: "Ukjent enhetstype" }),
  browser: z.string().max(64),
  os: z.string().max(64),
});
export type AnalyticsSession = z.infer<typeof analyticsSessionSchema>;

/** Event metadata (docs/product.md "Data"): the six named fields plus a few flat extras (e.g. listingId). */
const metadataSchema = z
  .object({
    sessionId,
    timestamp: z.iso.datetime({ error: "Ugyldig tidspunkt" }),
    page: url,
    userAgent,
    referrer: url.nullish().transform((v) => v || null),
    pageUrl: url,
  })
  .catchall(primitive)
  .refine((m) => Object.keys(m).length <= 6 + ANALYTICS_MAX_METADATA_KEYS, "For mange felt i metadata");

export const analyticsEventSchema = z.object({
  eventType: z.enum(EVENT_TYPES, { error: "Ukjent hendelsestype" }),
  eventCategory: z.enum(EVENT_CATEGORIES, { error: "Ukjent hendelseskategori" }),
  eventAction: z.string().min(1).max(100),
  eventLabel: text.nullish().transform((v) => v ?? null),
  eventValue: z
    .number()
    .finite()
    .nullish()
    .transform((v) => v ?? null),
  metadata: metadataSchema,
});

/** analytics-track-events: sessionId plus the events array. */
export const analyticsEventsSchema = z.object({
  sessionId,
  events: z
    .array(analyticsEventSchema)
    .min(1, "Ingen hendelser")
    .max(ANALYTICS_MAX_EVENTS_PER_REQUEST, `Høyst ${ANALYTICS_MAX_EVENTS_PER_REQUEST} hendelser per forespørsel`),
});
export type AnalyticsEvents = z.infer<typeof analyticsEventsSchema>;

/**
 * analytics-track-listing-view. `viewId` names one visit to a listing page: its reports (start,
 * scroll depth, 30 s, leaving) update one view instead of counting as several.
 */
export const listingViewSchema = z.object({
  sessionId,
  viewId: z.uuid({ error: "Ugyldig visnings-ID" }),
  listingId: z.uuid({ error: "Ugyldig annonse-ID" }),
  referrerType: z.enum(REFERRER_TYPES, { error: "Ukjent henvisningstype" }),
  searchQuery: text.nullish().transform((v) => v || null),
  filterContext: smallRecord(text)
    .nullish()
    .transform((v) => v ?? null),
  scrollDepthPercent: z.number().int().min(0).max(100),
  viewDurationMs: z
    .number()
    .int()
    .min(0)
    .transform((v) => Math.min(v, LISTING_VIEW_MAX_MS)),
});
export type ListingViewReport = z.infer<typeof listingViewSchema>;

/** analytics-track-search: the text, the filters and how many results it gave. */
export const searchTrackSchema = z.object({
  sessionId,
  query: text,
  filters: smallRecord(text),
  resultCount: z.number().int().min(0).max(1_000_000),
});
export type SearchTrack = z.infer<typeof searchTrackSchema>;

/**
 * One queue message per accepted request. `receivedAt` and `day` (Oslo) are the server's: rollups
 * never trust the client's clock.
 */
const envelope = { v: z.literal(1), receivedAt: z.iso.datetime(), day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) };
export const analyticsMessageSchema = z.discriminatedUnion("kind", [
  z.object({ ...envelope, kind: z.literal("session"), session: analyticsSessionSchema }),
  z.object({ ...envelope, kind: z.literal("events"), sessionId, events: analyticsEventsSchema.shape.events }),
  z.object({ ...envelope, kind: z.literal("listing_view"), view: listingViewSchema }),
  z.object({ ...envelope, kind: z.literal("search"), search: searchTrackSchema }),
]);
export type AnalyticsMessage = z.infer<typeof analyticsMessageSchema>;
export type AnalyticsMessageInput = z.input<typeof analyticsMessageSchema>;

/** get_listing_analytics p_days_back (query `?days=`), default 30. */
export const listingAnalyticsQuerySchema = z.object({
  days: z.coerce
    .number({ error: `Antall dager må være et tall mellom 1 og ${LISTING_ANALYTICS_MAX_DAYS}` })
    .int(`Antall dager må være et helt tall mellom 1 og ${LISTING_ANALYTICS_MAX_DAYS}`)
    .min(1, `Antall dager må være et tall mellom 1 og ${LISTING_ANALYTICS_MAX_DAYS}`)
    .max(LISTING_ANALYTICS_MAX_DAYS, `Antall dager må være et tall mellom 1 og ${LISTING_ANALYTICS_MAX_DAYS}`)
    .default(LISTING_ANALYTICS_DEFAULT_DAYS),
});

/** One day of a listing's statistics (all figures for that Oslo day). */
export interface ListingStatsDay {
  day: string;
  views: number;
  unique_sessions: number;
  /** Average time on the listing page in milliseconds; null on a day without views. */
  avg_view_ms: number | null;
  favourites: number;
  messages_started: number;
  trade_offers: number;
}

/** GET /api/analytics/listings/:id — get_listing_analytics(p_listing_id, p_days_back). */
export interface ListingAnalytics {
  listing_id: string;
  days_back: number;
  from: string;
  to: string;
  totals: Omit<ListingStatsDay, "day">;
  days: ListingStatsDay[];
}

/** GET /api/analytics/my-listings — one row of totals per own listing for "Mine annonser". */
export interface ListingStatsSummary {
  listing_id: string;
  views: number;
  unique_sessions: number;
}
