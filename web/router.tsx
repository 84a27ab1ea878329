import { createBrowserRouter, Navigate, type RouteObject } from "react-router-dom";
import { RequireAuth } from "./components/RequireAuth";
import { RootLayout } from "./components/layout/RootLayout";
import { PageSpinner } from "./components/ui/Spinner";
import { NotFound } from "./routes/fallback/NotFound";
import { RouteError } from "./routes/fallback/RouteError";
import type { PageHandle } from "./routes/placeholder/PlaceholderPage";

/*
 * The route table of spec part 2 §2 (plus /my-listings and /favoritter); domain/routes.ts holds the
 * same list for the Worker's real 404s — change both together.
 *
 * Every page is lazy so the first load carries only the shell. A page that is not built yet uses
 * the placeholder; to build one, point its `lazy` at a module that exports `Component`.
 */
const placeholder = (title: string): Pick<RouteObject, "lazy" | "handle"> => ({
  handle: { title } satisfies PageHandle,
  lazy: () => import("./routes/placeholder/PlaceholderPage").then((m) => ({ Component: m.PlaceholderPage })),
});

// /profile and /min-profil are the same screen.
const profilePage = () => import("./routes/profile/ProfilePage").then((m) => ({ Component: m.ProfilePage }));

const CREATE_LISTING_LOGIN_MESSAGE = "Du må være logget inn for å legge ut en annonse";

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    // Only when the layout itself fails; page errors are caught below, inside the layout.
    errorElement: <RouteError standalone />,
    children: [
      {
        errorElement: <RouteError />,
        // Shown inside the layout while the first page's code loads.
        hydrateFallbackElement: <PageSpinner />,
        children: [
          { index: true, lazy: () => import("./routes/home/HomePage").then((m) => ({ Component: m.HomePage })) },
          { path: "auth", lazy: () => import("./routes/auth/AuthPage").then((m) => ({ Component: m.AuthPage })) },
          { path: "auth/callback", lazy: () => import("./routes/auth/CallbackPage").then((m) => ({ Component: m.CallbackPage })) },
          { path: "search", lazy: () => import("./routes/search/SearchPage").then((m) => ({ Component: m.SearchPage })) },
          { path: "annonse/:slug", lazy: () => import("./routes/listing/SlugListingPage").then((m) => ({ Component: m.SlugListingPage })) },
          { path: "listing/:id", lazy: () => import("./routes/listing/ListingByIdPage").then((m) => ({ Component: m.ListingByIdPage })) },
          { path: "test-notifications", ...placeholder("Test av varsler") },
          { path: "payment-success", ...placeholder("Betaling") },
          { path: "betaling-fullfort", ...placeholder("Betalingsdetaljer") },
          { path: "om-oss", lazy: () => import("./routes/static/AboutPage").then((m) => ({ Component: m.AboutPage })) },
          { path: "kontakt", lazy: () => import("./routes/static/ContactPage").then((m) => ({ Component: m.ContactPage })) },
          { path: "personvern", lazy: () => import("./routes/static/PrivacyPage").then((m) => ({ Component: m.PrivacyPage })) },

          // Login required; the spec sends visitors to /auth on these.
          {
            element: <RequireAuth signedOut="redirect" />,
            children: [
              { path: "profile", lazy: profilePage },
              { path: "min-profil", lazy: profilePage },
              { path: "messages", ...placeholder("Meldinger") },
              { path: "chat/:conversationId", ...placeholder("Samtale") },
              { path: "edit-listing", element: <Navigate to="/profile" replace /> },
              { path: "edit-listing/:listingId", lazy: () => import("./routes/edit-listing/EditListingPage").then((m) => ({ Component: m.EditListingPage })) },
              { path: "trade-offer/:listingId", ...placeholder("Foreslå bytte") },
              { path: "trade-history", ...placeholder("Byttehistorikk") },
            ],
          },
          // Login required; visitors get a toast and /auth.
          {
            element: <RequireAuth signedOut="toast-redirect" toastMessage={CREATE_LISTING_LOGIN_MESSAGE} />,
            children: [
              { path: "create-listing", lazy: () => import("./routes/create-listing/CreateListingPage").then((m) => ({ Component: m.CreateListingPage })) },
            ],
          },
          // Login required; the sign-in form stands in for the page.
          {
            element: <RequireAuth signedOut="form" />,
            children: [
              { path: "my-listings", lazy: () => import("./routes/profile/MyListingsPage").then((m) => ({ Component: m.MyListingsPage })) },
              { path: "favoritter", lazy: () => import("./routes/favourites/FavouritesPage").then((m) => ({ Component: m.FavouritesPage })) },
              { path: "moderation", ...placeholder("Moderering") },
            ],
          },

          { path: "*", element: <NotFound /> },
        ],
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
