// The listing page as the listing-detail tests render it (listings-detail*.test.tsx): its routes,
// a render with the page's answers, the buy button's name, and the setup each test starts from.
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach } from "vitest";
import type { Session } from "../../web/api/auth";
import { ListingByIdPage } from "../../web/routes/listing/ListingByIdPage";
import { resetPreloadedListing } from "../../web/routes/listing/preloaded";
import { SlugListingPage } from "../../web/routes/listing/SlugListingPage";
import { listingPage, mockApi, stubBrowserApis, type Route } from "./listingHelpers";
import { jsonResponse, renderRoutes } from "./utils";

export const routes = [
  { path: "/listing/:id", element: <ListingByIdPage /> },
  { path: "/annonse/:slug", element: <SlugListingPage /> },
  { path: "/", element: <h1>Forsiden</h1> },
  { path: "/auth", element: <h1>Logg inn</h1> },
  { path: "/messages", element: <h1>Meldinger</h1> },
  { path: "/chat/:id", element: <h1>Samtale</h1> },
  { path: "/trade-offer/:id", element: <h1>Foreslå bytte</h1> },
  { path: "/edit-listing/:id", element: <h1>Rediger annonse</h1> },
  { path: "/profile", element: <h1>Min profil</h1> },
  { path: "*", element: <h1>404 - Siden finnes ikke</h1> },
];

export function renderListing(page = listingPage(), session: Session | null = null, ...extra: Route[]) {
  const fetch = mockApi(...extra, (url) => {
    if (url === `/api/listings/${page.id}`) return jsonResponse(page);
    if (url === `/api/listings/by-slug/${page.seo_slug}`) return jsonResponse(page);
    if (url === "/api/favourites/ids") return jsonResponse([]);
  });
  const user = userEvent.setup();
  return { user, fetch, ...renderRoutes(routes, { seed: { session }, path: `/listing/${page.id}` }) };
}

export const BUY = /^Kjøp nå med trygg betaling \(Vipps\/Stripe\) - /;

/** Browser stand-ins and no inlined listing before each test; the inlined element gone after it. */
export function withListingPage(): void {
  beforeEach(() => {
    stubBrowserApis();
    resetPreloadedListing();
  });

  afterEach(() => {
    document.getElementById("preloaded-listing")?.remove();
  });
}
