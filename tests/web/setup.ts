import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, beforeEach, vi } from "vitest";

// One process runs many test files one after another (isolate: false in vitest.web.config.mts):
// each file gets the app's and the tests' own modules afresh, and so its own module mocks, while
// React, Testing Library and the rest of node_modules load once per process. What this file uses
// from them is imported after the reset, so the test file shares these very instances.
vi.resetModules();
const { signOutState } = await import("../../web/lib/signOutState");
const { recordConsoleError, resetConsoleErrors, unexpectedConsoleErrors } = await import("./console");
const { FakeWebSocket } = await import("./fakeWebSocket");

// findBy… and waitFor poll; 1 s (the default) is too short for a first render with data on two
// cores that also run the Worker and end-to-end tests (a heading's count came after it in CI).
configure({ asyncUtilTimeout: 5_000 });

// jsdom lacks a few browser APIs that Radix and React Router's ScrollRestoration use.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
window.scrollTo = (() => {}) as typeof window.scrollTo;
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};
window.matchMedia ??= ((query: string) => ({
  matches: false,
  media: query,
  onchange: null,
  addListener: () => {},
  removeListener: () => {},
  addEventListener: () => {},
  removeEventListener: () => {},
  dispatchEvent: () => false,
})) as typeof window.matchMedia;

// jsdom's WebSocket would really connect; the live badge and the chat get a fake the tests drive.
globalThis.WebSocket = FakeWebSocket as unknown as typeof WebSocket;

beforeEach(() => {
  FakeWebSocket.reset();
  // Module state: a sign-out in one test must not leave the guards quiet in the next.
  signOutState.end();
  resetConsoleErrors();
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => recordConsoleError(args));
});

afterEach(() => {
  cleanup();
  const unexpected = unexpectedConsoleErrors();
  if (unexpected.length > 0) {
    const text = unexpected.map((args) => args.map((a) => (a instanceof Error ? (a.stack ?? a.message) : String(a))).join(" ")).join("\n");
    throw new Error(`Unexpected console.error during the test:\n${text}`);
  }
});
