/**
 * Our Worker's own time per request, in local mode only (docs/decisions/111-what-production-pays.md):
 * the wall time from the Worker's fetch entry to the end of its response body, minus the union of
 * the intervals during which it awaited I/O on a binding or the platform. Deployed, the clock only
 * advances after I/O, so this cannot be taken there; locally workerd's clock runs on (1 ms steps),
 * and what runs in the isolate while it waits (the D1 simulator, the Durable Objects, the asset and
 * cache services on the same thread) falls inside an I/O interval and is left out. What is left is
 * the CPU that runs in our isolate in production too: our code, the D1 binding's client code, the
 * edge render and the page's assembly.
 *
 * Asked for per request with the `X-Local-Worker-Time` header (only `npm run bench:load` sends it);
 * answered in `X-Local-Worker-Ms`. Nothing is wrapped outside local mode or without the header.
 */
import { isLocal, type Bindings, type ModeVars } from "../env";

export const WORKER_TIME_REQUEST_HEADER = "X-Local-Worker-Time";
export const WORKER_TIME_RESPONSE_HEADER = "X-Local-Worker-Ms";

/**
 * The union of intervals during which at least one I/O was in flight: an in-flight count whose
 * 0 → 1 opens an interval and 1 → 0 closes it. I/O sent in parallel (Promise.all) counts once.
 */
export class IoUnion {
  private inFlight = 0;
  private openedAt = 0;
  private closed = 0;

  constructor(private readonly now: () => number) {}

  begin(): void {
    if (this.inFlight++ === 0) this.openedAt = this.now();
  }

  end(): void {
    if (--this.inFlight === 0) this.closed += this.now() - this.openedAt;
  }

  /** Milliseconds covered so far; an interval still open counts up to now. */
  total(): number {
    return this.closed + (this.inFlight > 0 ? this.now() - this.openedAt : 0);
  }

  /** `call`'s I/O, from just before it is sent until the isolate resumes with its answer. */
  track<T>(call: () => T | PromiseLike<T>): Promise<T> {
    this.begin();
    let sent: T | PromiseLike<T>;
    try {
      sent = call();
    } catch (err) {
      this.end();
      throw err;
    }
    return Promise.resolve(sent).finally(() => this.end());
  }
}

const clock = () => performance.now();

/** Requests being measured now: the Cache API and fetch() are globals, so their I/O counts for each. */
const measuring = new Set<IoUnion>();

/**
 * A response's body read while its I/O is still tracked: a body streamed from the asset server, the
 * cache or a subrequest is I/O, and would otherwise be read later, inside our own time.
 */
async function withBodyRead<T>(answer: T): Promise<T> {
  if (!(answer instanceof Response) || answer.body === null || answer.status === 101 || answer.webSocket) return answer;
  return new Response(await answer.arrayBuffer(), answer) as T;
}

function trackAll<T>(unions: Set<IoUnion>, call: () => Promise<T>): Promise<T> {
  // Nothing measured now: the call as it is (its body streamed, not read here).
  if (unions.size === 0) return call();
  const all = [...unions];
  for (const u of all) u.begin();
  let sent: Promise<T>;
  try {
    sent = call().then(withBodyRead);
  } catch (err) {
    for (const u of all) u.end();
    throw err;
  }
  return sent.finally(() => {
    for (const u of all) u.end();
  });
}

/**
 * The measured request whose binding call is running right now, synchronously, and whether that
 * call has sent a request through a `Fetcher` (D1's transport, the assets, a Durable Object's fetch).
 */
let caller: IoUnion | null = null;
let callerFetched = false;

let globalsHooked = false;

/**
 * Once per isolate: the Cache API's and fetch()'s I/O counted for every request being measured,
 * and a `Fetcher`'s fetch counted for the binding call that sends it. D1's client code (workerd's,
 * in our isolate) sends each query through its binding's fetcher; only that round trip and the
 * reading of its answer are I/O, while serialising the statements, parsing D1's JSON and shaping
 * the rows count as ours, as they run in our isolate in production too.
 */
function hookGlobals(fetcherPrototype: object): void {
  if (globalsHooked) return;
  globalsHooked = true;
  const cache = Cache.prototype as unknown as Record<"match" | "put" | "delete", (...args: unknown[]) => Promise<unknown>>;
  for (const name of ["match", "put", "delete"] as const) {
    const original = cache[name];
    cache[name] = function (this: Cache, ...args: unknown[]) {
      return trackAll(measuring, () => Reflect.apply(original, this, args));
    };
  }
  const originalFetch = globalThis.fetch;
  globalThis.fetch = ((...args: Parameters<typeof fetch>) => trackAll(measuring, () => originalFetch(...args))) as typeof fetch;
  const fetcher = fetcherPrototype as { fetch: (...args: unknown[]) => Promise<Response> };
  const originalFetcherFetch = fetcher.fetch;
  fetcher.fetch = function (this: unknown, ...args: unknown[]) {
    const union = caller;
    if (!union) return Reflect.apply(originalFetcherFetch, this, args);
    callerFetched = true;
    caller = null;
    try {
      return union.track(() => Reflect.apply(originalFetcherFetch, this, args).then(withBodyRead));
    } finally {
      caller = union;
    }
  };
}

/** A promise, or a Durable Object RPC call's answer: a callable (pipelining) thenable, `typeof` "function". */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as PromiseLike<unknown>).then === "function"
  );
}

/** A binding's original, for arguments handed back to it (D1's batch takes only its own statements). */
const originals = new WeakMap<object, object>();

function unwrap(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrap);
  if (value !== null && typeof value === "object") return originals.get(value) ?? value;
  return value;
}

/**
 * A binding whose method calls are timed: a call that sends through a `Fetcher` is timed there (see
 * hookGlobals); any other call that answers with a promise (a rate limit, R2, a queue, a Durable
 * Object's RPC method) is I/O from its return to its answer. What a call answers at once (a D1
 * statement or session, a Durable Object id or stub) is wrapped the same way.
 */
function timed<T extends object>(target: T, union: IoUnion): T {
  // One wrapper per method and binding: made on the first call, not on every property access (the
  // measuring should cost as little of the measured time as it can).
  const wrappers = new Map<PropertyKey, { of: unknown; call: (...args: unknown[]) => unknown }>();
  const proxy = new Proxy(target, {
    get(obj, key) {
      const value = Reflect.get(obj, key, obj) as unknown;
      if (typeof value !== "function") return value;
      const known = wrappers.get(key);
      if (known?.of === value) return known.call;
      const call = (...args: unknown[]) => {
        const outer = caller;
        const outerFetched = callerFetched;
        caller = union;
        callerFetched = false;
        let answer: unknown;
        let fetched: boolean;
        try {
          // Reflect.apply: an RPC stub's method would take `.apply` for a remote method of that name.
          answer = Reflect.apply(value as (...a: unknown[]) => unknown, obj, args.map(unwrap));
        } finally {
          fetched = callerFetched;
          caller = outer;
          callerFetched = outerFetched;
        }
        if (isThenable(answer)) {
          return fetched ? answer : union.track(() => Promise.resolve(answer as PromiseLike<unknown>).then(withBodyRead));
        }
        return answer !== null && typeof answer === "object" && !Array.isArray(answer) ? timed(answer, union) : answer;
      };
      wrappers.set(key, { of: value, call });
      return call;
    },
  });
  originals.set(proxy, target);
  return proxy;
}

/** The bindings of one measured request: every object binding (D1, R2, Durable Objects, queues, assets, rate limits) timed. */
function timedBindings(env: Bindings, union: IoUnion): Bindings {
  const out: Record<string, unknown> = { ...env };
  for (const [key, value] of Object.entries(env)) {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) out[key] = timed(value, union);
  }
  return out as unknown as Bindings;
}

/** Whether this request asks for its own time: local mode and the bench's header only. */
export function measuresWorkerTime(request: Request, env: ModeVars): boolean {
  return isLocal(env) && request.headers.has(WORKER_TIME_REQUEST_HEADER);
}

/**
 * `handle`'s answer with our Worker's own time in `X-Local-Worker-Ms`. The body is read inside the
 * measured window and answered from memory: a body produced while it is read (a transformed or
 * otherwise streamed body) is produced after `handle` returns, and that work is ours. The bindings
 * are wrapped (timed, then `wrap`: the local D1 counter) before the clock starts: the measuring's
 * own setup is not the request's.
 */
export async function withWorkerTime(
  env: Bindings,
  handle: (env: Bindings) => Response | Promise<Response>,
  /** What else wraps the timed bindings before the request (the local D1 counter): done before the clock starts. */
  wrap: (env: Bindings) => Bindings = (timed) => timed,
): Promise<Response> {
  // The assets binding is a Fetcher, as D1's transport and a Durable Object stub are: the class
  // that defines `fetch` is theirs.
  let fetcher = Object.getPrototypeOf(env.ASSETS) as object | null;
  while (fetcher && !Object.hasOwn(fetcher, "fetch")) fetcher = Object.getPrototypeOf(fetcher) as object | null;
  if (!fetcher) throw new Error("worker-time: the assets binding has no fetch to time");
  hookGlobals(fetcher);
  const union = new IoUnion(clock);
  // The bindings are wrapped before the clock starts: that is the measuring's work, not the request's.
  const timedEnv = wrap(timedBindings(env, union));
  const started = clock();
  measuring.add(union);
  try {
    const res = await handle(timedEnv);
    if (res.status === 101 || res.webSocket) return res;
    const body = res.body === null ? null : await res.arrayBuffer();
    const own = clock() - started - union.total();
    const headers = new Headers(res.headers);
    headers.set(WORKER_TIME_RESPONSE_HEADER, String(own));
    return new Response(body, { status: res.status, statusText: res.statusText, headers });
  } finally {
    measuring.delete(union);
  }
}
