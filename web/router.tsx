import { lazy, type ComponentType, type ReactElement } from "react";
import { createRoutesFromChildren, Navigate, Route, useRoutes } from "react-router-dom";
import { RequireAuth } from "./components/RequireAuth";
import { RootLayout } from "./components/layout/RootLayout";
import { NotFound } from "./routes/fallback/NotFound";
import { PAGE_ROUTE_IDS, PAGE_ROUTES, pageRouteOf, type PageAccess, type PageRouteId } from "../domain/routes";
import { reloadOnceForMissingCode } from "./lib/missingCode";
import { preloadRouteCode } from "./lib/routeCode";

/*
 * The routes come from the route table in domain/routes.ts (paths and who may see them), which also
 * drives the Worker's real 404s, robots.txt and the sitemap; this file gives each route its page.
 *
 * Declarative routes (<Routes>) rather than the data router: the data router costs about 17 KB of
 * gzipped JavaScript on the first load and we use none of its loaders or actions
 * (docs/decisions/015-declarative-router.md). Every page is a lazy module so the first load carries
 * only the shell; RootLayout wraps the outlet in Suspense and an error boundary.
 */
function page<T extends Record<string, unknown>>(load: () => Promise<T>, name: keyof T & string, module: string = name): ComponentType {
  let loaded: { default: ComponentType } | undefined;
  const fetchModule = () =>
    load().then((m) => {
      loaded = { default: m[name] as ComponentType };
      return loaded;
    }, reloadOnceForMissingCode);
  // Once the module is here, hand it over synchronously: React then renders the page in the same
  // pass instead of showing the spinner for a moment (and the first load shows no flash).
  const Page = lazy(() => {
    if (loaded)
      return { then: (resolve: (m: { default: ComponentType }) => void) => resolve(loaded!) } as Promise<{ default: ComponentType }>;
    // A navigation: the module's own imports are asked for beside it, not once it has arrived.
    preloadRouteCode(module);
    return fetchModule();
  });
  return Object.assign(Page, { module, preload: () => (loaded ? Promise.resolve(loaded) : fetchModule()) });
}

/** A page made by `page`: its module's file name and a way to load it before it renders. */
export type PageComponent = ComponentType & { module?: string; preload?: () => Promise<unknown> };

const HomePage = page(() => import("./routes/home/HomePage"), "HomePage");
const AuthPage = page(() => import("./routes/auth/AuthPage"), "AuthPage");
const CallbackPage = page(() => import("./routes/auth/CallbackPage"), "CallbackPage");
const VippsCallbackPage = page(() => import("./routes/auth/VippsCallbackPage"), "VippsCallbackPage");
const ForgotPasswordPage = page(() => import("./routes/auth/ForgotPasswordPage"), "ForgotPasswordPage");
const ResetPasswordPage = page(() => import("./routes/auth/ResetPasswordPage"), "ResetPasswordPage");
const ConfirmEmailPage = page(() => import("./routes/auth/EmailLinkPages"), "ConfirmEmailPage", "EmailLinkPages");
const StopEmailChangePage = page(() => import("./routes/auth/EmailLinkPages"), "StopEmailChangePage", "EmailLinkPages");
const SearchPage = page(() => import("./routes/search/SearchPage"), "SearchPage");
const SlugListingPage = page(() => import("./routes/listing/SlugListingPage"), "SlugListingPage");
const ListingByIdPage = page(() => import("./routes/listing/ListingByIdPage"), "ListingByIdPage");
const PublicProfilePage = page(() => import("./routes/profile/PublicProfilePage"), "PublicProfilePage");
const AboutPage = page(() => import("./routes/static/AboutPage"), "AboutPage");
const ContactPage = page(() => import("./routes/static/ContactPage"), "ContactPage");
const PrivacyPage = page(() => import("./routes/static/PrivacyPage"), "PrivacyPage");
const ProfilePage = page(() => import("./routes/profile/ProfilePage"), "ProfilePage");
const EditListingPage = page(() => import("./routes/edit-listing/EditListingPage"), "EditListingPage");
const CreateListingPage = page(() => import("./routes/create-listing/CreateListingPage"), "CreateListingPage");
const MyListingsPage = page(() => import("./routes/profile/MyListingsPage"), "MyListingsPage");
const FavouritesPage = page(() => import("./routes/favourites/FavouritesPage"), "FavouritesPage");
const SavedSearchesPage = page(() => import("./routes/saved-searches/SavedSearchesPage"), "SavedSearchesPage");
const GiveawayPlacesPage = page(() => import("./routes/giveaways/GiveawayPlacesPage"), "GiveawayPlacesPage");
const UnsubscribePage = page(() => import("./routes/saved-searches/UnsubscribePage"), "UnsubscribePage");
const PaymentSuccessPage = page(() => import("./routes/payment/PaymentSuccessPage"), "PaymentSuccessPage");
const PaymentDetailsPage = page(() => import("./routes/payment/PaymentDetailsPage"), "PaymentDetailsPage");
const InboxPage = page(() => import("./routes/messages/InboxPage"), "InboxPage");
const ChatPage = page(() => import("./routes/chat/ChatPage"), "ChatPage");
const TestNotificationsPage = page(() => import("./routes/test-notifications/TestNotificationsPage"), "TestNotificationsPage");
const ModerationPage = page(() => import("./routes/moderation/ModerationPage"), "ModerationPage");
const DriftPage = page(() => import("./routes/admin/DriftPage"), "DriftPage");
const TradeOfferPage = page(() => import("./routes/trades/TradeOfferPage"), "TradeOfferPage");
const TradeHistoryPage = page(() => import("./routes/trades/TradeHistoryPage"), "TradeHistoryPage");

const CREATE_LISTING_LOGIN_MESSAGE = "Du må være logget inn for å legge ut en annonse";

/** The page of every route in the table; TypeScript refuses a table entry without one. */
export const PAGES: Record<PageRouteId, ReactElement> = {
  home: <HomePage />,
  auth: <AuthPage />,
  authCallback: <CallbackPage />,
  vippsCallback: <VippsCallbackPage />,
  forgotPassword: <ForgotPasswordPage />,
  resetPassword: <ResetPasswordPage />,
  confirmEmail: <ConfirmEmailPage />,
  stopEmailChange: <StopEmailChangePage />,
  search: <SearchPage />,
  listingBySlug: <SlugListingPage />,
  listingById: <ListingByIdPage />,
  publicProfile: <PublicProfilePage />,
  testNotifications: <TestNotificationsPage />,
  paymentSuccess: <PaymentSuccessPage />,
  paymentDetails: <PaymentDetailsPage />,
  about: <AboutPage />,
  contact: <ContactPage />,
  privacy: <PrivacyPage />,
  savedSearchUnsubscribe: <UnsubscribePage />,
  profile: <ProfilePage />,
  profileNorwegian: <ProfilePage />,
  messages: <InboxPage />,
  chat: <ChatPage />,
  editListingIndex: <Navigate to="/profile" replace />,
  editListing: <EditListingPage />,
  tradeOffer: <TradeOfferPage />,
  tradeHistory: <TradeHistoryPage />,
  createListing: <CreateListingPage />,
  myListings: <MyListingsPage />,
  favourites: <FavouritesPage />,
  savedSearches: <SavedSearchesPage />,
  giveawayPlaces: <GiveawayPlacesPage />,
  moderation: <ModerationPage />,
  adminDrift: <DriftPage />,
};

/** The guard a visitor meets on each kind of route (domain/routes.ts `access`). */
const GUARDS: Record<Exclude<PageAccess, "open">, ReactElement> = {
  "login-redirect": <RequireAuth signedOut="redirect" />,
  "login-toast": <RequireAuth signedOut="toast-redirect" toastMessage={CREATE_LISTING_LOGIN_MESSAGE} />,
  "login-form": <RequireAuth signedOut="form" />,
};

function pagesWith(access: PageAccess) {
  return PAGE_ROUTE_IDS.filter((id) => PAGE_ROUTES[id].access === access).map((id) => (
    <Route key={id} path={PAGE_ROUTES[id].path} element={PAGES[id]} />
  ));
}

/** The whole route tree, built from the route table; tests render it inside a MemoryRouter. */
export const routes = (
  <Route element={<RootLayout />}>
    {pagesWith("open")}
    {(Object.keys(GUARDS) as (keyof typeof GUARDS)[]).map((access) => (
      <Route key={access} element={GUARDS[access]}>
        {pagesWith(access)}
      </Route>
    ))}
    <Route path="*" element={<NotFound />} />
  </Route>
);

/**
 * Load the code of the page at `pathname`, so main.tsx can render it at once (the app loader has
 * already asked for its files with the entry, decision 112). Resolves also when it fails: the router
 * shows the error then.
 */
export function preloadPage(pathname: string): Promise<void> {
  const route = pageRouteOf(pathname, { local: true });
  const page = route ? (PAGES[route].type as PageComponent) : undefined;
  return (page?.preload?.() ?? Promise.resolve()).then(
    () => undefined,
    () => undefined,
  );
}

/** The route objects, made once: `<Routes>` would make them from the elements on every render. */
const routeObjects = createRoutesFromChildren(routes);

export function AppRoutes() {
  return useRoutes(routeObjects);
}
