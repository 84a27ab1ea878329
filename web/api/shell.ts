import { queryOptions } from "@tanstack/react-query";
import type { HomeSections } from "../../domain/schemas/listing";
import { api, call, type SuccessBody } from "./client";
import { preloadedData } from "./preloaded";

/** GET /api/config: the product name and the contact details for the footer and contact page. */
export type SiteConfig = SuccessBody<Awaited<ReturnType<typeof api.config.$get>>>;

export const homeQuery = () =>
  queryOptions({
    queryKey: ["home"] as const,
    queryFn: ({ signal }) => call(api.home.$get(undefined, { init: { signal } })),
    ...preloadedData<HomeSections>("/api/home"),
  });

export const configQuery = () =>
  queryOptions({
    queryKey: ["config"] as const,
    queryFn: ({ signal }) => call(api.config.$get(undefined, { init: { signal } })),
    ...preloadedData<SiteConfig>("/api/config"),
    staleTime: Infinity,
  });

export { sessionQuery } from "./auth";
