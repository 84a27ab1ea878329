// How a navigation asks for a page's files (web/lib/routeCode.ts): from the map the app fetches when
// idle, all at once, only the build's own scripts, each once.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch } from "./utils";

const MAP = {
  ChatPage: ["/assets/ChatPage-a1.js", "/assets/TradeParts-b2.js"],
  InboxPage: ["/assets/InboxPage-c3.js", "/assets/TradeParts-b2.js"],
  EvilPage: ["/assets/ok-d4.js", '/assets/x.js"><script>alert(1)</script>', "https://elsewhere.example/evil.js", 42],
};

const preloaded = () => [...document.head.querySelectorAll('link[rel="modulepreload"]')].map((link) => link.getAttribute("href"));

// The module keeps what it fetched: a fresh copy for each test.
const routeCode = () => import("../../web/lib/routeCode");

describe("preloading a page's files on a navigation", () => {
  beforeEach(() => vi.resetModules());
  afterEach(() => {
    for (const link of document.head.querySelectorAll('link[rel="modulepreload"]')) link.remove();
  });

  it("asks for the map when it is not here yet, then links every file of the page", async () => {
    const fetch = mockFetch((url) => (url === "/route-chunks.json" ? jsonResponse(MAP) : new Response(null, { status: 500 })));
    const { preloadRouteCode } = await routeCode();
    preloadRouteCode("ChatPage");
    await vi.waitFor(() => expect(preloaded()).toEqual(MAP.ChatPage));
    expect(fetch).toHaveBeenCalledTimes(1);
    const link = document.head.querySelector<HTMLLinkElement>('link[rel="modulepreload"]')!;
    expect(link.crossOrigin).toBe("");
  });

  it("links a file once, also when the page loaded it already or another page shares it", async () => {
    mockFetch(() => jsonResponse(MAP));
    const { loadRouteFiles, preloadRouteCode } = await routeCode();
    const present = document.createElement("link");
    present.rel = "modulepreload";
    present.href = "/assets/ChatPage-a1.js";
    document.head.append(present);
    await loadRouteFiles();
    preloadRouteCode("ChatPage");
    preloadRouteCode("ChatPage");
    preloadRouteCode("InboxPage");
    expect(preloaded()).toEqual(["/assets/ChatPage-a1.js", "/assets/TradeParts-b2.js", "/assets/InboxPage-c3.js"]);
  });

  it("links only the build's own scripts", async () => {
    mockFetch(() => jsonResponse(MAP));
    const { loadRouteFiles, preloadRouteCode } = await routeCode();
    await loadRouteFiles();
    preloadRouteCode("EvilPage");
    preloadRouteCode("NoSuchPage");
    expect(preloaded()).toEqual(["/assets/ok-d4.js"]);
  });

  it("without the map links nothing, and asks again at the next navigation", async () => {
    let available = false;
    const fetch = mockFetch(() => (available ? jsonResponse(MAP) : new Response(null, { status: 503 })));
    const { loadRouteFiles, preloadRouteCode } = await routeCode();
    expect(await loadRouteFiles()).toEqual({});
    preloadRouteCode("ChatPage");
    // The navigation's own request for the map, and its failure.
    expect(await loadRouteFiles()).toEqual({});
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(preloaded()).toEqual([]);
    available = true;
    preloadRouteCode("ChatPage");
    await vi.waitFor(() => expect(preloaded()).toEqual(MAP.ChatPage));
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it("fetches the map once the page has loaded and the browser is idle", async () => {
    const fetch = mockFetch(() => jsonResponse(MAP));
    const idle = vi.fn((callback: () => void) => {
      callback();
      return 1;
    });
    vi.stubGlobal("requestIdleCallback", idle);
    const { loadRouteFilesWhenIdle } = await routeCode();
    // jsdom's document has finished loading: the map is asked for at the next idle moment.
    expect(document.readyState).toBe("complete");
    loadRouteFilesWhenIdle();
    expect(idle).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledWith("/route-chunks.json");
  });
});
