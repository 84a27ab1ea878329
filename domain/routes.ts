// The SPA's route table (docs/product.md "Routes", plus /my-listings and /favoritter): the one list that
// drives the router (web/router.tsx), the Worker's real 404s (worker/features/shell/routes.ts), robots.txt
// and the sitemap's open pages (docs/decisions/025-route-table.md). Add a page here first.

/**
 * Who may see a page, and what a visitor gets on a login-required one (docs/product.md
 * "Routes"): "login-redirect" goes to /auth, "login-toast" shows a toast and goes to /auth,
 * "login-form" shows the sign-in form in place of the page.
 */
export type PageAccess = "open" | "login-redirect" | "login-toast" | "login-form";

export interface PageRoute {
  /** React Router's pattern: `:name` is one path segment. */
  path: string;
  access: PageAccess;
  /** Search engines may crawl it (robots.txt Allow); without parameters it is also in the sitemap. */
  indexed: boolean;
  /** Exists only in local mode: in production the Worker answers it with a real 404. */
  localOnly?: boolean;
  /**
   * The file name of the page module in web/routes that renders it, as the build's route-chunks.json
   * names it: the Worker names that module's files in the page for the app loader, and the app
   * preloads them when it navigates there. None for a route that only redirects.
   */
  module?: string;
}

export const PAGE_ROUTES = {
  home: { path: "/", access: "open", indexed: true, module: "HomePage" },
  auth: { path: "/auth", access: "open", indexed: false, module: "AuthPage" },
  authCallback: { path: "/auth/callback", access: "open", indexed: false, module: "CallbackPage" },
  // Where Vipps Login sends the browser back (its registered redirect URI), and the mailed link's page (decision 128).
  vippsCallback: { path: "/auth/vipps", access: "open", indexed: false, module: "VippsCallbackPage" },
  // Getting back into an account and the links of its mails (docs/decisions/125-account-recovery.md).
  forgotPassword: { path: "/auth/glemt-passord", access: "open", indexed: false, module: "ForgotPasswordPage" },
  resetPassword: { path: "/auth/nytt-passord", access: "open", indexed: false, module: "ResetPasswordPage" },
  confirmEmail: { path: "/auth/bekreft-epost", access: "open", indexed: false, module: "EmailLinkPages" },
  stopEmailChange: { path: "/auth/stopp-epostendring", access: "open", indexed: false, module: "EmailLinkPages" },
  search: { path: "/search", access: "open", indexed: true, module: "SearchPage" },
  listingBySlug: { path: "/annonse/:slug", access: "open", indexed: true, module: "SlugListingPage" },
  // Old links keep working; /annonse/{slug} is the page search engines get.
  listingById: { path: "/listing/:id", access: "open", indexed: false, module: "ListingByIdPage" },
  // The notification test page and its endpoint exist only in local mode (docs/product.md).
  testNotifications: { path: "/test-notifications", access: "open", indexed: false, localOnly: true, module: "TestNotificationsPage" },
  // The public profile (decision 071): open to all, but not for search engines (private people).
  publicProfile: { path: "/bruker/:id", access: "open", indexed: false, module: "PublicProfilePage" },
  paymentSuccess: { path: "/payment-success", access: "open", indexed: false, module: "PaymentSuccessPage" },
  paymentDetails: { path: "/betaling-fullfort", access: "open", indexed: false, module: "PaymentDetailsPage" },
  about: { path: "/om-oss", access: "open", indexed: true, module: "AboutPage" },
  contact: { path: "/kontakt", access: "open", indexed: true, module: "ContactPage" },
  privacy: { path: "/personvern", access: "open", indexed: true, module: "PrivacyPage" },
  // The unsubscribe link of saved-search alert e-mails works signed out (docs/decisions/041).
  savedSearchUnsubscribe: { path: "/lagrede-sok/avmeld", access: "open", indexed: false, module: "UnsubscribePage" },

  profile: { path: "/profile", access: "login-redirect", indexed: false, module: "ProfilePage" },
  profileNorwegian: { path: "/min-profil", access: "login-redirect", indexed: false, module: "ProfilePage" },
  messages: { path: "/messages", access: "login-redirect", indexed: false, module: "InboxPage" },
  chat: { path: "/chat/:conversationId", access: "login-redirect", indexed: false, module: "ChatPage" },
  // Without an id: to /profile, where the user's listings are.
  editListingIndex: { path: "/edit-listing", access: "login-redirect", indexed: false },
  editListing: { path: "/edit-listing/:listingId", access: "login-redirect", indexed: false, module: "EditListingPage" },
  tradeOffer: { path: "/trade-offer/:listingId", access: "login-redirect", indexed: false, module: "TradeOfferPage" },
  tradeHistory: { path: "/trade-history", access: "login-redirect", indexed: false, module: "TradeHistoryPage" },

  createListing: { path: "/create-listing", access: "login-toast", indexed: false, module: "CreateListingPage" },

  myListings: { path: "/my-listings", access: "login-form", indexed: false, module: "MyListingsPage" },
  favourites: { path: "/favoritter", access: "login-form", indexed: false, module: "FavouritesPage" },
  savedSearches: { path: "/lagrede-sok", access: "login-form", indexed: false, module: "SavedSearchesPage" },
  // The user's places in give-away queues, with the giver's moves as notices (docs/decisions/075).
  giveawayPlaces: { path: "/mine-koplasser", access: "login-form", indexed: false, module: "GiveawayPlacesPage" },
  moderation: { path: "/moderation", access: "login-form", indexed: false, module: "ModerationPage" },
  // The operator's page (docs/decisions/134-operations-page.md); the server answers its data to admins only.
  adminDrift: { path: "/admin/drift", access: "login-form", indexed: false, module: "DriftPage" },
} as const satisfies Record<string, PageRoute>;

export type PageRouteId = keyof typeof PAGE_ROUTES;

export const PAGE_ROUTE_IDS = Object.keys(PAGE_ROUTES) as PageRouteId[];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The pattern as a RegExp over a pathname: `:name` is one non-empty segment, a trailing slash is fine. */
export function routeRegExp(path: string): RegExp {
  if (path === "/") return /^\/$/;
  const body = path
    .split("/")
    .slice(1)
    .map((segment) => (segment.startsWith(":") ? "[^/]+" : escapeRegExp(segment)))
    .join("/");
  return new RegExp(`^/${body}/?$`);
}

const ROUTE_REGEXPS = PAGE_ROUTE_IDS.map((id) => {
  const route: PageRoute = PAGE_ROUTES[id];
  return { id, re: routeRegExp(route.path), localOnly: route.localOnly === true };
});

/**
 * The route of a path the SPA has a page for (the patterns never overlap). Local-only pages count
 * only when `local` is set (the Worker passes its mode).
 */
export function pageRouteOf(pathname: string, { local = false }: { local?: boolean } = {}): PageRouteId | undefined {
  return ROUTE_REGEXPS.find((route) => (local || !route.localOnly) && route.re.test(pathname))?.id;
}

/**
 * A file the build's page → files map (route-chunks.json) may name for a page to load: only the
 * build's own scripts, so neither the Worker nor the app links anything else from it.
 */
export function isBuildScript(href: unknown): href is string {
  return typeof href === "string" && /^\/assets\/[\w.-]+\.js$/.test(href);
}

/** A path the SPA has a page for (the Worker answers everything else with a real 404). */
export function isKnownRoute(pathname: string, options: { local?: boolean } = {}): boolean {
  return pageRouteOf(pathname, options) !== undefined;
}

/** The robots.txt prefix of a pattern: everything before its first parameter ("/annonse/:slug" → "/annonse/"). */
export function robotsPrefix(path: string): string {
  const param = path.indexOf(":");
  return param === -1 ? path : path.slice(0, param);
}

/**
 * robots.txt's Allow and Disallow lists (in table order): one prefix per route, left out where a
 * shorter prefix of the same list covers it ("/auth" covers "/auth/callback"). "/" needs no line:
 * what is not disallowed is allowed.
 */
export function robotsRules(): { allow: string[]; disallow: string[] } {
  const collect = (indexed: boolean) => {
    const prefixes = Object.values(PAGE_ROUTES)
      .filter((route) => route.indexed === indexed && route.path !== "/")
      .map((route) => robotsPrefix(route.path));
    return [...new Set(prefixes)].filter((prefix, _, all) => !all.some((other) => other !== prefix && prefix.startsWith(other)));
  };
  return { allow: collect(true), disallow: collect(false) };
}

/** The open pages the sitemap lists besides the listings: indexed routes without parameters. */
export function sitemapPaths(): string[] {
  return Object.values(PAGE_ROUTES)
    .filter((route) => route.indexed && !route.path.includes(":"))
    .map((route) => route.path);
}
