import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, type RenderResult } from "@testing-library/react";
import { StrictMode, type ReactElement, type ReactNode } from "react";
import {
  MemoryRouter,
  Routes,
  useLocation,
  useNavigate,
  useNavigationType,
  useRoutes,
  type Location,
  type NavigationType,
  type RouteObject,
} from "react-router-dom";
import { vi } from "vitest";
import type { Session, SessionUser } from "../../web/api/auth";
import type { SiteConfig } from "../../web/api/shell";
import type { HomeSections } from "../../domain/schemas/listing";
import { listingCardBody, sessionBody, siteConfigBody } from "../factories/api";

// The Worker's real response shapes (tests/factories/api.ts, checked against the Worker).
export const testConfig: SiteConfig = siteConfigBody();

export function sessionFor(role: SessionUser["role"] = "user"): Session {
  return sessionBody({ user: { role } });
}

/** A listing card as home, search and the lists send it. */
export const listing = listingCardBody;

export interface Seed {
  /** undefined: leave the session query empty (loading); null: signed out. */
  session?: Session | null;
  config?: SiteConfig;
  home?: HomeSections;
}

/** A QueryClient that never retries or refetches by itself, pre-filled with `seed`. */
export function createTestQueryClient(seed: Seed = {}): QueryClient {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity, refetchOnWindowFocus: false }, mutations: { retry: false } },
  });
  if (seed.session !== undefined) client.setQueryData(["session"], seed.session);
  client.setQueryData(["config"], seed.config ?? testConfig);
  if (seed.home) client.setQueryData(["home"], seed.home);
  return client;
}

export function renderWithProviders(ui: ReactNode, { seed = {}, path = "/" }: { seed?: Seed; path?: string } = {}) {
  const queryClient = createTestQueryClient(seed);
  const result: RenderResult = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}

/** What a test reads of the router: the current location and how it got there. */
export interface TestRouter {
  state: { location: Location; historyAction: NavigationType };
  /** Navigate as the app would (a path, or -1 / 1 for back and forward). */
  navigate: (to: string | number) => Promise<void>;
}

function LocationSpy({ router }: { router: TestRouter }) {
  router.state.location = useLocation();
  router.state.historyAction = useNavigationType();
  const navigate = useNavigate();
  router.navigate = async (to) => {
    if (typeof to === "number") await navigate(to);
    else await navigate(to);
  };
  return null;
}

function RouteArray({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes);
}

/**
 * Render a route tree (the app's `routes` element or a RouteObject array) in a MemoryRouter with
 * the query client; `router.state` follows the location.
 */
export function renderRoutes(
  routes: RouteObject[] | ReactElement,
  {
    seed = {},
    path = "/",
    entries,
    index,
    strict = false,
    queryClient = createTestQueryClient(seed),
  }: { seed?: Seed; path?: string; entries?: string[]; index?: number; strict?: boolean; queryClient?: QueryClient } = {},
) {
  const router = { state: {}, navigate: async () => {} } as unknown as TestRouter;
  const tree = (
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={entries ?? [path]} initialIndex={index}>
        <LocationSpy router={router} />
        {Array.isArray(routes) ? <RouteArray routes={routes} /> : <Routes>{routes}</Routes>}
      </MemoryRouter>
    </QueryClientProvider>
  );
  const result = render(strict ? <StrictMode>{tree}</StrictMode> : tree);
  return { ...result, queryClient, router };
}

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json" },
  });
}

/** Replaces fetch; unknown requests fail the test loudly. */
export function mockFetch(handler: (url: string, init: RequestInit | undefined) => Response | Promise<Response>) {
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => handler(String(input), init));
  vi.stubGlobal("fetch", fn);
  return fn;
}
