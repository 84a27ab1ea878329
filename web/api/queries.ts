import { queryOptions } from "@tanstack/react-query";
import type { HomeSections } from "../../domain/schemas/listing";
import { apiFetch } from "./client";
import { preloadedData } from "./preloaded";

export interface SiteConfig {
  appName: string;
  contactEmail: string;
  contactPhone: string;
  contactAddress: string;
}

export const homeQuery = () =>
  queryOptions({
    queryKey: ["home"] as const,
    queryFn: ({ signal }) => apiFetch<HomeSections>("/api/home", { signal }),
    ...preloadedData<HomeSections>("/api/home"),
  });

export const configQuery = () =>
  queryOptions({
    queryKey: ["config"] as const,
    queryFn: ({ signal }) => apiFetch<SiteConfig>("/api/config", { signal }),
    ...preloadedData<SiteConfig>("/api/config"),
    staleTime: Infinity,
  });

export { sessionQuery } from "./session";
