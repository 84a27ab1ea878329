// Code that cannot be fetched reloads the page once (web/lib/missingCode.ts, decision
// 164); everything else goes on to the error screen. The reload itself, once and not in a loop, is
// tests/e2e/fallbacks.spec.ts's.
import { afterEach, describe, expect, it, vi } from "vitest";
import { isModuleNotFetched, reloadOnceForMissingCode } from "../../web/lib/missingCode";

const notFetched = (message: string) => new TypeError(message);

describe("a failed import of the app's code", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    sessionStorage.clear();
  });

  it.each([
    "Failed to fetch dynamically imported module: http://localhost/assets/AboutPage-x.js",
    "error loading dynamically imported module: http://localhost/assets/AboutPage-x.js",
    "Importing a module script failed.",
  ])("is a module that was not fetched: %s", (message) => {
    expect(isModuleNotFetched(notFetched(message))).toBe(true);
  });

  it("is not every error: a page's own error while it loads goes to the error screen", async () => {
    const own = new TypeError("Cannot read properties of undefined (reading 'x')");
    expect(isModuleNotFetched(own)).toBe(false);
    expect(isModuleNotFetched(new Error("Failed to fetch dynamically imported module"))).toBe(false);
    await expect(reloadOnceForMissingCode(own)).rejects.toBe(own);
    expect(sessionStorage.length).toBe(0);
  });

  it("offline, the error screen says more than the browser's own page: no reload", async () => {
    vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    const error = notFetched("Failed to fetch dynamically imported module: x");
    await expect(reloadOnceForMissingCode(error)).rejects.toBe(error);
    expect(sessionStorage.length).toBe(0);
  });

  it("just reloaded for this address: the error goes on to the error screen", async () => {
    sessionStorage.setItem(
      "lekebytte:missing-code-reload",
      JSON.stringify({ address: location.pathname + location.search, at: Date.now() }),
    );
    const error = notFetched("Failed to fetch dynamically imported module: x");
    await expect(reloadOnceForMissingCode(error)).rejects.toBe(error);
  });
});
