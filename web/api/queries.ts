import { queryOptions } from "@tanstack/react-query";
import { api, call, type SuccessBody } from "./client";

/** GET /api/config: the product name and the contact details for the footer and contact page. */
export type SiteConfig = SuccessBody<Awaited<ReturnType<typeof api.config.$get>>>;

export const homeQuery = () =>
  queryOptions({
    queryKey: ["home"] as const,
    queryFn: ({ signal }) => call(api.home.$get(undefined, { init: { signal } })),
  });

export const configQuery = () =>
  queryOptions({
    queryKey: ["config"] as const,
    queryFn: ({ signal }) => call(api.config.$get(undefined, { init: { signal } })),
    staleTime: Infinity,
  });

export { sessionQuery } from "./session";
