// The SPA's route table (spec part 2 §2). The Worker uses it to answer unknown paths with a real 404.
export const ROUTE_PATTERNS: RegExp[] = [
  /^\/$/,
  /^\/auth\/?$/,
  /^\/auth\/callback\/?$/,
  /^\/search\/?$/,
  /^\/annonse\/[^/]+\/?$/,
  /^\/listing\/[^/]+\/?$/,
  /^\/profile\/?$/,
  /^\/min-profil\/?$/,
  /^\/my-listings\/?$/,
  /^\/favoritter\/?$/,
  /^\/messages\/?$/,
  /^\/chat\/[^/]+\/?$/,
  /^\/create-listing\/?$/,
  /^\/edit-listing(\/[^/]+)?\/?$/,
  /^\/trade-offer\/[^/]+\/?$/,
  /^\/trade-history\/?$/,
  /^\/test-notifications\/?$/,
  /^\/payment-success\/?$/,
  /^\/betaling-fullfort\/?$/,
  /^\/moderation\/?$/,
  /^\/om-oss\/?$/,
  /^\/kontakt\/?$/,
  /^\/personvern\/?$/,
];

export function isKnownRoute(pathname: string): boolean {
  return ROUTE_PATTERNS.some((re) => re.test(pathname));
}
