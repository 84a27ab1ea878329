import { lazy, type ComponentType } from "react";
import { Navigate, Route, Routes } from "react-router-dom";
import { RequireAuth } from "./components/RequireAuth";
import { RootLayout } from "./components/layout/RootLayout";
import { NotFound } from "./routes/fallback/NotFound";

/*
 * The route table of spec part 2 §2 (plus /my-listings and /favoritter); domain/routes.ts holds the
 * same list for the Worker's real 404s — change both together.
 *
 * Declarative routes (<Routes>) rather than the data router: the data router costs about 17 KB of
 * gzipped JavaScript on the first load and we use none of its loaders or actions
 * (docs/decisions/015-declarative-router.md). Every page is a lazy module so the first load carries
 * only the shell; RootLayout wraps the outlet in Suspense and an error boundary.
 */
function page<T extends Record<string, unknown>>(load: () => Promise<T>, name: keyof T & string): ComponentType {
  return lazy(() => load().then((m) => ({ default: m[name] as ComponentType })));
}

const HomePage = page(() => import("./routes/home/HomePage"), "HomePage");
const AuthPage = page(() => import("./routes/auth/AuthPage"), "AuthPage");
const CallbackPage = page(() => import("./routes/auth/CallbackPage"), "CallbackPage");
const SearchPage = page(() => import("./routes/search/SearchPage"), "SearchPage");
const SlugListingPage = page(() => import("./routes/listing/SlugListingPage"), "SlugListingPage");
const ListingByIdPage = page(() => import("./routes/listing/ListingByIdPage"), "ListingByIdPage");
const AboutPage = page(() => import("./routes/static/AboutPage"), "AboutPage");
const ContactPage = page(() => import("./routes/static/ContactPage"), "ContactPage");
const PrivacyPage = page(() => import("./routes/static/PrivacyPage"), "PrivacyPage");
const ProfilePage = page(() => import("./routes/profile/ProfilePage"), "ProfilePage");
const EditListingPage = page(() => import("./routes/edit-listing/EditListingPage"), "EditListingPage");
const CreateListingPage = page(() => import("./routes/create-listing/CreateListingPage"), "CreateListingPage");
const MyListingsPage = page(() => import("./routes/profile/MyListingsPage"), "MyListingsPage");
const FavouritesPage = page(() => import("./routes/favourites/FavouritesPage"), "FavouritesPage");
const PaymentSuccessPage = page(() => import("./routes/payment/PaymentSuccessPage"), "PaymentSuccessPage");
const PaymentDetailsPage = page(() => import("./routes/payment/PaymentDetailsPage"), "PaymentDetailsPage");
const Placeholder = page(() => import("./routes/placeholder/PlaceholderPage"), "PlaceholderPage") as ComponentType<{ title: string }>;

const CREATE_LISTING_LOGIN_MESSAGE = "Du må være logget inn for å legge ut en annonse";

/** The whole route tree; tests render it inside a MemoryRouter. */
export const routes = (
  <Route element={<RootLayout />}>
    <Route index element={<HomePage />} />
    <Route path="auth" element={<AuthPage />} />
    <Route path="auth/callback" element={<CallbackPage />} />
    <Route path="search" element={<SearchPage />} />
    <Route path="annonse/:slug" element={<SlugListingPage />} />
    <Route path="listing/:id" element={<ListingByIdPage />} />
    <Route path="test-notifications" element={<Placeholder title="Test av varsler" />} />
    <Route path="payment-success" element={<PaymentSuccessPage />} />
    <Route path="betaling-fullfort" element={<PaymentDetailsPage />} />
    <Route path="om-oss" element={<AboutPage />} />
    <Route path="kontakt" element={<ContactPage />} />
    <Route path="personvern" element={<PrivacyPage />} />

    {/* Login required; the spec sends visitors to /auth on these. */}
    <Route element={<RequireAuth signedOut="redirect" />}>
      <Route path="profile" element={<ProfilePage />} />
      <Route path="min-profil" element={<ProfilePage />} />
      <Route path="messages" element={<Placeholder title="Meldinger" />} />
      <Route path="chat/:conversationId" element={<Placeholder title="Samtale" />} />
      <Route path="edit-listing" element={<Navigate to="/profile" replace />} />
      <Route path="edit-listing/:listingId" element={<EditListingPage />} />
      <Route path="trade-offer/:listingId" element={<Placeholder title="Foreslå bytte" />} />
      <Route path="trade-history" element={<Placeholder title="Byttehistorikk" />} />
    </Route>
    {/* Login required; visitors get a toast and /auth. */}
    <Route element={<RequireAuth signedOut="toast-redirect" toastMessage={CREATE_LISTING_LOGIN_MESSAGE} />}>
      <Route path="create-listing" element={<CreateListingPage />} />
    </Route>
    {/* Login required; the sign-in form stands in for the page. */}
    <Route element={<RequireAuth signedOut="form" />}>
      <Route path="my-listings" element={<MyListingsPage />} />
      <Route path="favoritter" element={<FavouritesPage />} />
      <Route path="moderation" element={<Placeholder title="Moderering" />} />
    </Route>

    <Route path="*" element={<NotFound />} />
  </Route>
);

export function AppRoutes() {
  return <Routes>{routes}</Routes>;
}
