// Test data and browser stand-ins shared by the listing tests (listing*.test.tsx).
import { vi } from "vitest";
import type { ListingPage, OwnListing } from "../../web/api/listings";
import { jsonResponse, listing, mockFetch, sessionFor } from "./utils";

export const ME = sessionFor("user").user;
export const SELLER_ID = "22222222-2222-4222-8222-222222222222";

export function listingPage(overrides: Partial<ListingPage> = {}): ListingPage {
  const base = listing({ images: ["u2/a.jpg", "u2/b.jpg"], ...overrides });
  return {
    ...base,
    description: "Komplett sett.\nLite brukt.",
    updated_at: base.created_at,
    place_name: "OSLO",
    seller: { user_id: base.user_id, display_name: "Ola Hansen", created_at: "2024-03-05T10:00:00.000Z" },
    more_from_seller: [],
    ...overrides,
  };
}

export function ownListing(overrides: Partial<OwnListing> = {}): OwnListing {
  return { ...listing({ user_id: ME.id, images: ["u1/a.jpg", "u1/b.jpg"] }), description: "Fin stand", ...overrides };
}

export function apiError(status: number, code: string, message: string, fields?: Record<string, string>): Response {
  return jsonResponse({ error: { code, message, fields } }, status);
}

export type Route = (url: string, init: RequestInit | undefined) => Response | Promise<Response> | undefined;

/** fetch that answers with the first route that returns something, else 404 (and records every call). */
export function mockApi(...routes: Route[]) {
  return mockFetch(async (url, init) => {
    for (const route of routes) {
      const answer = await route(url, init);
      if (answer) return answer;
    }
    return apiError(404, "NOT_FOUND", "Ikke funnet");
  });
}

export function method(init: RequestInit | undefined): string {
  return (init?.method ?? "GET").toUpperCase();
}

export function bodyOf(init: RequestInit | undefined): unknown {
  return typeof init?.body === "string" ? JSON.parse(init.body) : init?.body;
}

/** jsdom has no object URLs; embla asks for IntersectionObserver. */
export function stubBrowserApis() {
  let n = 0;
  URL.createObjectURL = vi.fn(() => `blob:test/${++n}`);
  URL.revokeObjectURL = vi.fn();
  class IntersectionObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
    takeRecords() {
      return [];
    }
  }
  vi.stubGlobal("IntersectionObserver", IntersectionObserverStub);
}

export function photo(name: string, type = "image/jpeg", size = 1024): File {
  return new File([new Uint8Array(size)], name, { type });
}

/** A promise with its resolve function, to hold a request open. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
