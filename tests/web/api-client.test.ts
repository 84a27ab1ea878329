import { describe, expect, it } from "vitest";
import { api, ApiError, call } from "../../web/api/client";
import { fetchSession, sessionExpiresAtMs } from "../../web/api/auth";
import { errorBody, homeBody, sessionBody } from "../factories/api";
import { jsonResponse, mockFetch } from "./utils";

const unauthenticated = () => jsonResponse(errorBody("UNAUTHENTICATED", "Du er ikke logget inn"), 401);

describe("the typed client", () => {
  it("calls the route's URL with the session cookies and returns the JSON body", async () => {
    const fetch = mockFetch(() => jsonResponse(homeBody()));
    await expect(call(api.home.$get())).resolves.toEqual({ newest: [], free: [], trade: [] });
    expect(fetch.mock.calls[0][0]).toBe("/api/home");
    expect(fetch.mock.calls[0][1]?.credentials).toBe("include");
    expect(new Headers(fetch.mock.calls[0][1]?.headers).get("Accept")).toBe("application/json");
  });

  it("sends JSON bodies and path parameters as the route declares them", async () => {
    const fetch = mockFetch(() => jsonResponse({ ok: true }));
    await call(api.listings[":id"].status.$post({ param: { id: "abc" }, json: { status: "reserved" } }));
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe("/api/listings/abc/status");
    expect(init?.method).toBe("POST");
    expect(new Headers(init?.headers).get("Content-Type")).toBe("application/json");
    expect(JSON.parse(String(init?.body))).toEqual({ status: "reserved" });
  });

  it("throws an ApiError built from the error envelope", async () => {
    mockFetch(() => jsonResponse(errorBody("VALIDATION", "Ugyldige data", { email: "Feil e-post" }), 400));
    const error = await call(api.newsletter.$post({ json: { email: "x" } })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: "VALIDATION", message: "Ugyldige data", fields: { email: "Feil e-post" } });
  });

  it("turns a non-JSON failure and a network failure into ApiErrors", async () => {
    mockFetch(() => new Response("<html>oops</html>", { status: 502 }));
    await expect(call(api.home.$get())).rejects.toMatchObject({ status: 502, code: "INTERNAL" });

    mockFetch(() => Promise.reject(new TypeError("Failed to fetch")));
    await expect(call(api.home.$get())).rejects.toMatchObject({ status: 0, code: "NETWORK" });
  });

  it("resolves undefined for 204", async () => {
    mockFetch(() => new Response(null, { status: 204 }));
    await expect(call(api.auth.signout.$post())).resolves.toBeUndefined();
  });
});

describe("fetchSession", () => {
  it("returns the Worker's session, whose expiry is epoch seconds", async () => {
    const session = sessionBody();
    mockFetch(() => jsonResponse(session));
    const fetched = await fetchSession();
    expect(fetched).toEqual(session);
    const msLeft = sessionExpiresAtMs(fetched!) - Date.now();
    expect(msLeft).toBeGreaterThan(14 * 60_000);
    expect(msLeft).toBeLessThanOrEqual(15 * 60_000);
  });

  it("a visitor's check is a normal answer: 200 with null, and no refresh", async () => {
    const fetch = mockFetch(() => jsonResponse(null));
    await expect(fetchSession()).resolves.toBeNull();
    expect(fetch.mock.calls.map((c) => c[0])).toEqual(["/api/auth/session"]);
  });

  it("treats 401, 404 and network errors as signed out", async () => {
    mockFetch(unauthenticated);
    await expect(fetchSession()).resolves.toBeNull();
    mockFetch(() => jsonResponse(errorBody("NOT_FOUND", "Ikke funnet"), 404));
    await expect(fetchSession()).resolves.toBeNull();
    mockFetch(() => Promise.reject(new TypeError("Failed to fetch")));
    await expect(fetchSession()).resolves.toBeNull();
  });
});

describe("session refresh on 401", () => {
  it("refreshes once and retries the call", async () => {
    let refreshed = false;
    const fetch = mockFetch((url) => {
      if (url === "/api/auth/refresh") {
        refreshed = true;
        return jsonResponse(sessionBody());
      }
      return refreshed ? jsonResponse(homeBody()) : unauthenticated();
    });
    await expect(call(api.home.$get())).resolves.toEqual(homeBody());
    expect(fetch.mock.calls.map((c) => c[0])).toEqual(["/api/home", "/api/auth/refresh", "/api/home"]);
  });

  it("sends the same body again on the retry", async () => {
    let refreshed = false;
    const fetch = mockFetch((url) => {
      if (url === "/api/auth/refresh") {
        refreshed = true;
        return jsonResponse(sessionBody());
      }
      return refreshed ? jsonResponse({ ok: true }, 201) : unauthenticated();
    });
    await call(api.contact.$post({ json: { name: "Kari", email: "kari@example.no", subject: "Hei", message: "Et spørsmål" } }));
    const posts = fetch.mock.calls.filter(([url]) => url === "/api/contact");
    expect(posts).toHaveLength(2);
    expect(posts[1][1]?.body).toBe(posts[0][1]?.body);
  });

  it("gives up with the 401 when the refresh fails, and never refreshes for sign-in", async () => {
    const fetch = mockFetch(unauthenticated);
    await expect(call(api.me.$get())).rejects.toMatchObject({ status: 401 });
    expect(fetch).toHaveBeenCalledTimes(2);

    fetch.mockClear();
    await expect(call(api.auth.signin.$post({ json: { email: "kari@example.no", password: "x" } }))).rejects.toMatchObject({ status: 401 });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
