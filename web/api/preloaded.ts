// Shared infrastructure of web/api/ (seeds the feature modules' queries).
/**
 * The first screen's API answers, inlined by the Worker into the page it serves as
 * `<script id="preloaded-api" type="application/json">{"<api path>": <body>, …}</script>`
 * (worker/features/shell/preload.ts, docs/decisions/020-shell-preload.md).
 *
 * A query registers for preloaded data by spreading `preloadedData(path)` into its options, with
 * the exact path (and query string) it would fetch: the first query that asks for a path gets the
 * body as its initial data, dated to the page load so the usual staleTime applies; later queries
 * fetch as usual. Nothing is ever used for another path, so a stale or foreign entry cannot leak.
 */
let entries: Map<string, unknown> | undefined;
/** While the Worker renders a page (web/ssr): that request's answers instead of the document's. */
let rendering: Map<string, unknown> | undefined;

/**
 * Runs `render` (synchronous: the edge render is one renderToString pass) with `api` as the
 * preloaded answers, so the first render on the server sees exactly what the browser's will.
 */
export function withPreloaded<T>(api: Record<string, unknown>, render: () => T): T {
  const previous = rendering;
  rendering = new Map(Object.entries(api));
  try {
    return render();
  } finally {
    rendering = previous;
  }
}

function read(): Map<string, unknown> {
  if (rendering) return rendering;
  if (entries) return entries;
  entries = new Map();
  const element = typeof document === "undefined" ? null : document.getElementById("preloaded-api");
  if (element) {
    try {
      const value: unknown = JSON.parse(element.textContent ?? "");
      if (value && typeof value === "object" && !Array.isArray(value)) {
        for (const [path, body] of Object.entries(value)) entries.set(path, body);
      }
    } catch {
      // A broken block only costs the round trip it would have saved.
    }
    element.remove();
  }
  return entries;
}

/** The preloaded body for `path`, once; undefined when there is none (or it was taken). */
export function takePreloaded<T>(path: string): T | undefined {
  const all = read();
  if (!all.has(path)) return undefined;
  const body = all.get(path) as T;
  all.delete(path);
  return body;
}

/** When the page (and so its preloaded data) was loaded, in ms since the epoch. */
function pageLoadedAt(): number {
  if (rendering) return Date.now();
  return typeof performance !== "undefined" && performance.timeOrigin ? Math.round(performance.timeOrigin) : Date.now();
}

/**
 * Query options that seed a query from the page's preloaded data; `wrap` shapes the body into the
 * query's data (e.g. an infinite query's first page).
 */
export function preloadedData<T, D = T>(
  path: string,
  wrap?: (body: T) => D,
): { initialData?: () => D | undefined; initialDataUpdatedAt?: number } {
  return {
    initialData: () => {
      const body = takePreloaded<T>(path);
      if (body === undefined) return undefined;
      return wrap ? wrap(body) : (body as unknown as D);
    },
    initialDataUpdatedAt: pageLoadedAt(),
  };
}

/** For tests: forget what was read. */
export function resetPreloaded(): void {
  entries = undefined;
}
