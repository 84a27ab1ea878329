import { describe, expect, it } from "vitest";
import { ApiError, apiFetch } from "../../web/api/client";
import { fetchSession, sessionExpiresAtMs } from "../../web/api/session";
import { jsonResponse, mockFetch } from "./utils";

describe("apiFetch", () => {
  it("returns the JSON body and sends credentials", async () => {
    const fetch = mockFetch(() => jsonResponse({ hello: "hei" }));
    await expect(apiFetch("/api/x")).resolves.toEqual({ hello: "hei" });
    expect(fetch.mock.calls[0][1]?.credentials).toBe("include");
  });

  it("throws an ApiError built from the error envelope", async () => {
    mockFetch(() => jsonResponse({ error: { code: "VALIDATION", message: "Ugyldige data", fields: { email: "Feil e-post" } } }, 400));
    const error = await apiFetch("/api/x", { method: "POST", body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: "VALIDATION", message: "Ugyldige data", fields: { email: "Feil e-post" } });
  });

  it("turns a non-JSON failure and a network failure into ApiErrors", async () => {
    mockFetch(() => new Response("<html>oops</html>", { status: 502 }));
    await expect(apiFetch("/api/x")).rejects.toMatchObject({ status: 502, code: "INTERNAL" });

    mockFetch(() => Promise.reject(new TypeError("Failed to fetch")));
    await expect(apiFetch("/api/x")).rejects.toMatchObject({ status: 0, code: "NETWORK" });
  });

  it("resolves undefined for 204", async () => {
    mockFetch(() => new Response(null, { status: 204 }));
    await expect(apiFetch("/api/auth/signout", { method: "POST" })).resolves.toBeUndefined();
  });
});

describe("fetchSession", () => {
  it("a visitor's check is a normal answer: 200 with null, and no refresh", async () => {
    const fetch = mockFetch(() => jsonResponse(null));
    await expect(fetchSession()).resolves.toBeNull();
    expect(fetch.mock.calls.map((c) => c[0])).toEqual(["/api/auth/session"]);
  });

  it("returns the signed-in session with its expiry in Unix seconds", async () => {
    const session = { user: { id: "u", email: "kari@example.no", display_name: "Kari", role: "user" }, expires_at: 1_900_000_000 };
    mockFetch(() => jsonResponse(session));
    const result = await fetchSession();
    expect(result).toEqual(session);
    expect(sessionExpiresAtMs(result!)).toBe(1_900_000_000_000);
  });

  it("treats 401, 404 and network errors as signed out", async () => {
    mockFetch(() => jsonResponse({ error: { code: "UNAUTHENTICATED", message: "Du er ikke logget inn" } }, 401));
    await expect(fetchSession()).resolves.toBeNull();
    mockFetch(() => jsonResponse({ error: { code: "NOT_FOUND", message: "Ikke funnet" } }, 404));
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
        return jsonResponse({ user: { id: "u" }, expires_at: 1 });
      }
      return refreshed ? jsonResponse({ ok: true }) : jsonResponse({ error: { code: "UNAUTHENTICATED", message: "Du er ikke logget inn" } }, 401);
    });
    await expect(apiFetch("/api/me")).resolves.toEqual({ ok: true });
    expect(fetch.mock.calls.map((c) => c[0])).toEqual(["/api/me", "/api/auth/refresh", "/api/me"]);
  });

  it("gives up with the 401 when the refresh fails, and never refreshes for sign-in", async () => {
    const fetch = mockFetch(() => jsonResponse({ error: { code: "UNAUTHENTICATED", message: "Du er ikke logget inn" } }, 401));
    await expect(apiFetch("/api/me")).rejects.toMatchObject({ status: 401 });
    expect(fetch).toHaveBeenCalledTimes(2);

    fetch.mockClear();
    await expect(apiFetch("/api/auth/signin", { method: "POST", body: {} })).rejects.toMatchObject({ status: 401 });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
