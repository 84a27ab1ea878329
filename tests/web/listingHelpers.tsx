// Test data and browser stand-ins shared by the listing tests (listing*.test.tsx).
import { vi } from "vitest";
import { listingPageBody, ownListingBody, TEST_SELLER_ID } from "../factories/api";
import { jsonResponse, mockFetch, sessionFor } from "./utils";

export const ME = sessionFor("user").user;
export const SELLER_ID = TEST_SELLER_ID;

/** The listing page's answer (tests/factories/api.ts). */
export const listingPage = listingPageBody;
/** The owner's listing for the edit form. */
export const ownListing = ownListingBody;

export function apiError(status: number, code: string, message: string, fields?: Record<string, string>): Response {
  return jsonResponse({ error: { code, message, fields } }, status);
}

export type Route = (url: string, init: RequestInit | undefined) => Response | Promise<Response> | undefined;

/** GET /api/me for the wizard: the signed-in seller's profile, with the postal code it prefills. */
export const wizardProfile: Route = (url) =>
  url === "/api/me"
    ? jsonResponse({ user_id: "u1", email: "kari@example.no", display_name: "Kari", postal_code: "0150", role: "user" })
    : undefined;

/** The image route: every upload gets the next key, deletes succeed. */
export function imagesRoute(): Route {
  let n = 0;
  return (url, init) => {
    if (url === "/api/images" && method(init) === "POST") return jsonResponse({ key: `u1/${++n}.jpg`, type: "image/jpeg" }, 201);
    if (url.startsWith("/api/images/") && method(init) === "DELETE") return new Response(null, { status: 204 });
  };
}

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
