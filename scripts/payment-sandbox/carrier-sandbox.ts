// What every sandbox carrier shares (decisions 147 and 154): the API calls it received, the failure
// switch for retry tests, Idempotency-Key replays, and the tester's moves of a parcel along its
// route, each step sending the carrier's tracking webhooks. Bring (bring-api.ts) and Helthjem
// (helthjem-api.ts) each add their own API shapes, numbers, codes and webhook bodies.
import type { Carrier } from "../../domain/carriers";
import { json, type Reply, type SandboxRequest } from "./http";
import type { Delivery } from "./webhooks";

/** The steps a tester can move a parcel to ("Levert inn", "På vei", "Klar til henting", "Levert", "Tapt"). */
export const PARCEL_STEPS = ["handed_in", "in_transit", "ready_for_pickup", "delivered", "lost"] as const;
export type ParcelStep = (typeof PARCEL_STEPS)[number];
export type ParcelStatus = "booked" | "cancelled" | ParcelStep;
/** A step that sends tracking events ("lost" sends nothing). */
export type TrackedStep = Exclude<ParcelStep, "lost">;

/** What the tester page and the generic moves read from a carrier's parcel. */
export interface TrackedParcel {
  status: ParcelStatus;
  createdAt: string;
  events: Array<{ code: string; at: string }>;
}

/** One parcel as the tester page shows it, whatever the carrier. */
export interface TesterParcel {
  carrier: Carrier;
  number: string;
  /** What the seller writes on the parcel, or null when the booking has a label instead. */
  code: string | null;
  service: string;
  size: string;
  from: string;
  to: string;
  status: ParcelStatus;
  createdAt: string;
  events: string[];
  /** The steps still ahead, in order. */
  moves: ParcelStep[];
}

/** A sandbox carrier as the server, the tester page and the sandbox-only paths use it. */
export interface SandboxCarrier {
  readonly carrier: Carrier;
  readonly requests: CarrierCalls["requests"];
  /** The carrier's API answer, or null when the request is not for it. */
  handle(req: SandboxRequest): Reply | null;
  parcelList(): unknown[];
  testerParcels(): TesterParcel[];
  advance(number: string, step: ParcelStep): { parcel: unknown; deliveries: Delivery[] } | { error: string };
  failNext(times: number, status: number, scope?: FailureScope): void;
  clearFailures(scope?: FailureScope): void;
  snapshot(): unknown;
  restore(state: unknown): void;
}

export interface FailureScope {
  key?: string | null;
  path?: string | null;
}

interface Failure {
  status: number;
  key: string | null;
  path: string | null;
}

/** The calls a carrier received, its failure switch, and its Idempotency-Key replays. */
export class CarrierCalls {
  readonly requests: Array<{ method: string; path: string; idempotencyKey: string | null; at: string }> = [];
  private readonly idempotency = new Map<string, { fingerprint: string; reply: Reply }>();
  /**
   * Statuses the next API calls answer with before doing anything (the retry tests' switch). A
   * failure with a key or a path is taken only by a call with that Idempotency-Key or under that
   * path, so test files running at the same time cannot take each other's.
   */
  private readonly failures: Failure[] = [];

  /** Records the call, and answers the failure it takes (null when none is waiting for it). */
  record(req: SandboxRequest, idempotencyKey: string | null): number | null {
    const path = req.url.pathname;
    this.requests.push({ method: req.method, path, idempotencyKey, at: new Date().toISOString() });
    const taken = this.failures.findIndex(
      (f) => (f.key === null || f.key === idempotencyKey) && (f.path === null || path.startsWith(f.path)),
    );
    if (taken < 0) return null;
    return this.failures.splice(taken, 1)[0].status;
  }

  /** The next `times` API calls (with this key, under this path) answer `status` (503, 500, 429 …) without doing anything. */
  failNext(times: number, status: number, scope: FailureScope = {}): void {
    for (let i = 0; i < times; i++) this.failures.push({ status, key: scope.key ?? null, path: scope.path ?? null });
  }

  /**
   * Forgets failures not yet taken (a test that failed early must not leave them to the next): all
   * of them, or only those set with this key or path, leaving other test files' alone.
   */
  clearFailures(scope: FailureScope = {}): void {
    const kept = this.failures.filter((f) => (scope.key != null && f.key !== scope.key) || (scope.path != null && f.path !== scope.path));
    this.failures.splice(0, this.failures.length, ...kept);
  }

  /**
   * A repeat with the same key and request answers the first answer again (`Idempotent-Replayed`);
   * the same key with another request is `misused`. 5xx answers are not kept.
   */
  idempotent(key: string | null, fingerprint: string, run: () => Reply, misused: () => Reply): Reply {
    if (!key) return run();
    const seen = this.idempotency.get(key);
    if (seen) {
      if (seen.fingerprint !== fingerprint) return misused();
      return { ...seen.reply, headers: { ...seen.reply.headers, "Idempotent-Replayed": "true" } };
    }
    const reply = run();
    if (reply.status < 500) this.idempotency.set(key, { fingerprint, reply });
    return reply;
  }
}

/**
 * Moves the parcel to `step` along its route, sending each step's events on the way (a parcel moved
 * straight to "delivered" was handed in and carried first). "lost" sends nothing: a lost parcel is
 * silence, and Lekebytte's lost-parcel check notices it (decision 145).
 */
export function advanceParcel<P extends TrackedParcel>(
  parcel: P | undefined,
  number: string,
  route: TrackedStep[],
  step: ParcelStep,
  emit: (parcel: P, step: TrackedStep) => Delivery[],
): { parcel: P; deliveries: Delivery[] } | { error: string } {
  if (!parcel) return { error: `Fant ingen pakke ${number}.` };
  if (parcel.status === "cancelled" || parcel.status === "delivered" || parcel.status === "lost")
    return { error: "Pakken kan ikke flyttes videre." };
  if (step === "lost") {
    if (parcel.status === "booked") return { error: "En pakke som ikke er levert inn, kan ikke bli borte." };
    parcel.status = "lost";
    return { parcel, deliveries: [] };
  }
  const from = parcel.status === "booked" ? -1 : route.indexOf(parcel.status as TrackedStep);
  const to = route.indexOf(step);
  if (to < 0) return { error: "Denne tjenesten går ikke via et hentested." };
  if (to <= from) return { error: "Pakken er allerede kommet så langt." };
  const deliveries = route.slice(from + 1, to + 1).flatMap((s) => emit(parcel, s));
  parcel.status = step;
  return { parcel, deliveries };
}

/** A parcel's route: through a pickup point, or straight to the door or mailbox (never ready for pickup). */
export function routeFor(throughPickupPoint: boolean): TrackedStep[] {
  return throughPickupPoint ? ["handed_in", "in_transit", "ready_for_pickup", "delivered"] : ["handed_in", "in_transit", "delivered"];
}

/** The steps still ahead of a parcel on its route, "lost" once it is handed in. */
export function movesAhead(parcel: TrackedParcel, route: TrackedStep[]): ParcelStep[] {
  if (parcel.status === "cancelled" || parcel.status === "delivered" || parcel.status === "lost") return [];
  const done = parcel.status === "booked" ? -1 : route.indexOf(parcel.status as TrackedStep);
  return [...route.filter((_, i) => i > done), ...(parcel.status === "booked" ? [] : (["lost"] as ParcelStep[]))];
}

/** The carrier's sandbox-only paths under /__sandbox/{carrier}/: its parcels, a tester's move, and the failure switch. */
export function carrierRoutes(req: SandboxRequest, carrier: SandboxCarrier): Reply {
  const path = req.url.pathname;
  const base = `/__sandbox/${carrier.carrier}`;
  if (req.method === "GET" && path === `${base}/parcels`) return json(200, carrier.parcelList());
  const body = (): Record<string, unknown> => {
    try {
      return (JSON.parse(req.body || "{}") as Record<string, unknown>) ?? {};
    } catch {
      return {};
    }
  };
  const m = new RegExp(`^${base}/parcels/([^/]+)/advance$`).exec(path);
  if (req.method === "POST" && m) {
    const step = body().step as ParcelStep;
    if (!PARCEL_STEPS.includes(step)) return json(400, { error: `step must be one of ${PARCEL_STEPS.join(", ")}` });
    const result = carrier.advance(decodeURIComponent(m[1]), step);
    return "error" in result ? json(409, result) : json(200, result);
  }
  if (req.method === "POST" && path === `${base}/fail`) {
    const {
      times = 1,
      status = 503,
      key = null,
      path: under = null,
    } = body() as { times?: unknown; status?: unknown; key?: unknown; path?: unknown };
    if (!Number.isInteger(times) || !Number.isInteger(status) || (times as number) < 1 || (status as number) < 400)
      return json(400, { error: "times must be a positive integer and status an HTTP error status" });
    if ((key !== null && typeof key !== "string") || (under !== null && typeof under !== "string"))
      return json(400, { error: "key and path must be strings" });
    carrier.failNext(times as number, status as number, { key: key as string | null, path: under as string | null });
    return json(200, { ok: true });
  }
  if (req.method === "DELETE" && path === `${base}/fail`) {
    carrier.clearFailures({ key: req.url.searchParams.get("key"), path: req.url.searchParams.get("path") });
    return json(200, { ok: true });
  }
  return json(404, { error: "no such sandbox path" });
}
