// The shell feature: GET /api/config, the site settings every page's footer shows (the Worker also
// inlines it into the page it serves, see preloaded.ts).
import { queryOptions } from "@tanstack/react-query";
import { api, call, type ResponseBody } from "./client";
import { preloadedData } from "./preloaded";

/** GET /api/config: the product name and the contact details for the footer and contact page. */
export type SiteConfig = ResponseBody<typeof api.config.$get>;

export const shellKeys = {
  config: ["config"] as const,
};

export const configQuery = () =>
  queryOptions({
    queryKey: shellKeys.config,
    queryFn: ({ signal }) => call(api.config.$get(undefined, { init: { signal } })),
    ...preloadedData<SiteConfig>("/api/config"),
    staleTime: Infinity,
  });
