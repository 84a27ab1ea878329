// The first touch on an edge-rendered page (decisions 120, 121): what a visitor types into the edge
// HTML before React has taken it over stays, and is what the app then uses; a press made while the
// session is still being checked is carried out once it is known; the controls that depend on who
// is signed in are marked so index.html can hide them from a signed-in browser until then.
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { startTransition } from "react";
import { hydrateRoot, type Root as ReactRoot } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resetPreloaded } from "../../web/api/preloaded";
import { createQueryClient } from "../../web/api/queryClient";
import { Root } from "../../web/Root";
import { preloadPage } from "../../web/router";
import { resetPreloadedListing } from "../../web/routes/listing/preloaded";
import { renderFirstScreen } from "../../web/ssr/render";
import { homeBody, listingCardBody, listingPageBody, sessionBody, siteConfigBody } from "../factories/api";
import { deferred, stubBrowserApis } from "./listingHelpers";
import { jsonResponse, mockFetch } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

const config = { "/api/config": siteConfigBody() };
/** Each test renders a page at the edge and hydrates it: more than the default on a busy machine. */
const EDGE_PAGE_TEST_MS = 20_000;
let root: ReactRoot | undefined;

/**
 * The page as the Worker serves it (its first screen in #root), `before` done to the edge HTML as a
 * visitor would before any of the app's code runs, then taken over as web/main.tsx does: the page's
 * code first, the hydration as a transition.
 */
async function openEdgePage(url: string, api: Record<string, unknown>, before: () => void = () => {}, listing?: unknown) {
  const renderedAt = new Date();
  const html = await renderFirstScreen({ url, api, listing, now: renderedAt });
  expect(html, "the page renders at the edge").not.toBeNull();
  window.history.replaceState(null, "", url);
  const listingScript = listing ? `<script id="preloaded-listing" type="application/json">${JSON.stringify(listing)}</script>` : "";
  document.body.innerHTML = `<script id="preloaded-api" type="application/json">${JSON.stringify(api)}</script>${listingScript}<div id="root" data-rendered-at="${renderedAt.toISOString()}">${html}</div>`;
  resetPreloaded();
  resetPreloadedListing();
  before();
  await preloadPage(new URL(url, "http://x").pathname);
  const container = document.getElementById("root")!;
  await act(async () => {
    startTransition(() => {
      root = hydrateRoot(container, <Root queryClient={createQueryClient()} renderedAt={renderedAt} />);
    });
  });
}

/** Text in a field of the edge HTML, as typing leaves it before React listens. */
function typeBeforeTheApp(field: Element | null, text: string) {
  expect(field, "the field is in the edge HTML").not.toBeNull();
  (field as HTMLInputElement).value = text;
}

beforeEach(() => {
  stubBrowserApis();
  toast.toastError.mockReset();
  toast.toastSuccess.mockReset();
});

afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = "";
  document.documentElement.removeAttribute("data-session");
});

describe("text typed into the edge HTML before the app runs", () => {
  it(
    "the newsletter's e-mail and name stay in their fields and are what 'Meld meg på' sends",
    async () => {
      const fetch = mockFetch((url, init) => {
        if (url === "/api/auth/session") return jsonResponse(null);
        if (url === "/api/newsletter" && init?.method === "POST") return jsonResponse({ ok: true }, 201);
        return new Promise<Response>(() => {});
      });
      await openEdgePage("/", { ...config, "/api/home": homeBody({ newest: [listingCardBody()] }) }, () => {
        typeBeforeTheApp(document.querySelector('input[name="email"]'), "tidlig@eksempel.no");
        typeBeforeTheApp(document.querySelector('input[name="name"]'), "Kari");
      });

      expect(screen.getByLabelText("E-post")).toHaveValue("tidlig@eksempel.no");
      await userEvent.click(screen.getByRole("button", { name: "Meld meg på" }));

      await waitFor(() => expect(toast.toastSuccess).toHaveBeenCalledWith("Takk for påmeldingen!", "Du er nå påmeldt vårt nyhetsbrev"));
      const sent = fetch.mock.calls.find(([url]) => url === "/api/newsletter");
      expect(JSON.parse(String(sent?.[1]?.body))).toMatchObject({ email: "tidlig@eksempel.no", name: "Kari" });
      expect(toast.toastError).not.toHaveBeenCalled();
    },
    EDGE_PAGE_TEST_MS,
  );

  it(
    "the search field keeps its text, and the page searches for it",
    async () => {
      mockFetch((url) => {
        if (url === "/api/auth/session") return jsonResponse(null);
        return new Promise<Response>(() => {});
      });
      await openEdgePage("/search", config, () => typeBeforeTheApp(document.getElementById("search-text"), "duplo"));

      await waitFor(() => expect(new URLSearchParams(window.location.search).get("q")).toBe("duplo"));
      expect(screen.getByRole("searchbox", { name: "Søk i annonser" })).toHaveValue("duplo");
    },
    EDGE_PAGE_TEST_MS,
  );
});

describe("a press while the session is being checked", () => {
  it(
    "'Foreslå bytte' sends a visitor to sign in once the check says so, not nowhere",
    async () => {
      const session = deferred<Response>();
      mockFetch((url) => (url === "/api/auth/session" ? session.promise : new Promise<Response>(() => {})));
      const listing = listingPageBody({ title: "Lego Duplo båt", is_trade_offer: true });
      await openEdgePage(`/annonse/${listing.seo_slug}`, config, undefined, listing);

      await userEvent.click(screen.getByRole("button", { name: "Foreslå bytte" }));
      expect(window.location.pathname, "nothing yet: the session is not known").toBe(`/annonse/${listing.seo_slug}`);
      await act(async () => session.resolve(jsonResponse(null)));

      await waitFor(() => expect(window.location.pathname).toBe("/auth"));
      expect(new URLSearchParams(window.location.search).get("next")).toBe(`/trade-offer/${listing.id}`);
      expect(toast.toastError).toHaveBeenCalledWith("Logg inn påkrevd", "Du må være logget inn for å foreslå bytte", {
        id: "login-required",
      });
    },
    EDGE_PAGE_TEST_MS,
  );

  it(
    "the favourite heart does the same",
    async () => {
      const session = deferred<Response>();
      mockFetch((url) => (url === "/api/auth/session" ? session.promise : new Promise<Response>(() => {})));
      const listing = listingPageBody({ title: "Lego Duplo båt" });
      await openEdgePage(`/annonse/${listing.seo_slug}`, config, undefined, listing);

      await userEvent.click(screen.getAllByRole("button", { name: "Legg til i favoritter" })[0]);
      expect(toast.toastError).not.toHaveBeenCalled();
      await act(async () => session.resolve(jsonResponse(null)));

      await waitFor(() => expect(window.location.pathname).toBe("/auth"));
      expect(toast.toastError).toHaveBeenCalledWith("Logg inn påkrevd", "Du må være logget inn for å lagre favoritter", {
        id: "login-required",
      });
    },
    EDGE_PAGE_TEST_MS,
  );
});

describe("controls that depend on who is signed in", () => {
  it(
    "are marked in the edge HTML, and a signed-in browser's wait for its session ends once it is known",
    async () => {
      const session = deferred<Response>();
      mockFetch((url) => (url === "/api/auth/session" ? session.promise : new Promise<Response>(() => {})));
      const listing = listingPageBody({ title: "Lego Duplo båt", is_trade_offer: true });
      await openEdgePage(
        `/annonse/${listing.seo_slug}`,
        config,
        () => document.documentElement.setAttribute("data-session", "pending"),
        listing,
      );

      const marked = (element: HTMLElement) => element.closest("[data-session-dependent]");
      expect(marked(screen.getByRole("link", { name: "Logg inn" }))).not.toBeNull();
      expect(marked(screen.getByRole("button", { name: "Foreslå bytte" }))).not.toBeNull();
      expect(marked(screen.getByRole("button", { name: "Rapporter annonse" }))).not.toBeNull();
      expect(marked(screen.getByRole("button", { name: "Rapporter bruker" }))).not.toBeNull();
      expect(document.documentElement).toHaveAttribute("data-session", "pending");

      await act(async () => session.resolve(jsonResponse(null)));
      await waitFor(() => expect(document.documentElement).not.toHaveAttribute("data-session"));
    },
    EDGE_PAGE_TEST_MS,
  );
});

describe("parts that keep the edge's HTML until wanted (web/components/EdgePart.tsx)", () => {
  const other = listingCardBody({ title: "Brio togbane med bro" });
  const listing = listingPageBody({ title: "Lego Duplo båt", more_from_seller: [other] });
  const open = () => openEdgePage(`/annonse/${listing.seo_slug}`, config, undefined, listing);
  const more = () => screen.getByRole("region", { name: "Flere annonser fra Ola Hansen" });

  it(
    "keep their edge HTML, node for node, while nobody wants them; their links navigate inside the app",
    async () => {
      mockFetch((url) => (url === "/api/auth/session" ? jsonResponse(null) : new Promise<Response>(() => {})));
      const before: Element[] = [];
      await openEdgePage(
        `/annonse/${listing.seo_slug}`,
        config,
        () => {
          before.push(...document.querySelectorAll("[data-edge-part] section"));
        },
        listing,
      );
      await waitFor(() => expect(screen.getByRole("link", { name: "Logg inn" })).toBeVisible());

      const after = [...document.querySelectorAll("[data-edge-part] section")];
      expect(before.length, "the seller's card and other listings").toBe(2);
      expect(after, "the same elements: React rendered nothing of them").toEqual(before);
      const sameDocument = document.body.firstElementChild;
      await userEvent.click(within(more()).getByRole("link", { name: "Brio togbane med bro" }));
      expect(window.location.pathname).toBe(`/annonse/${other.seo_slug}`);
      expect(document.body.firstElementChild, "no page load").toBe(sameDocument);
    },
    EDGE_PAGE_TEST_MS,
  );

  it(
    "a press on a button in one is kept and carried out once its code runs",
    async () => {
      mockFetch((url) => (url === "/api/auth/session" ? jsonResponse(null) : new Promise<Response>(() => {})));
      await open();
      await waitFor(() => expect(screen.getByRole("link", { name: "Logg inn" })).toBeVisible());

      await userEvent.click(within(more()).getByRole("button", { name: "Legg til i favoritter" }));

      await waitFor(() => expect(window.location.pathname).toBe("/auth"));
      expect(toast.toastError).toHaveBeenCalledWith("Logg inn påkrevd", "Du må være logget inn for å lagre favoritter", {
        id: "login-required",
      });
    },
    EDGE_PAGE_TEST_MS,
  );

  it(
    "render as React for a signed-in person (a heart of theirs shows pressed)",
    async () => {
      mockFetch((url) => {
        if (url === "/api/auth/session") return jsonResponse(sessionBody());
        if (url === "/api/favourites/ids") return jsonResponse([other.id]);
        return new Promise<Response>(() => {});
      });
      await open();

      await waitFor(() =>
        expect(within(more()).getByRole("button", { name: "Fjern fra favoritter" })).toHaveAttribute("aria-pressed", "true"),
      );
    },
    EDGE_PAGE_TEST_MS,
  );
});
