import { queryOptions, type QueryClient } from "@tanstack/react-query";
import type { ListingCard, ListingDetail, ListingFormInput } from "../../domain/schemas/listing";
import { apiFetch, ApiError, refreshSessionOnce } from "./client";
import { preloadedData } from "./preloaded";

/** GET /api/listings/:id and /by-slug/:slug: the detail plus up to 4 more active listings from the seller. */
export type ListingPage = ListingDetail & { more_from_seller: ListingCard[] };

/** GET /api/me/listings/:id: the owner's listing with its description (for the edit form). */
export type OwnListing = ListingCard & { description: string | null };

/** The states a seller may set (POST /api/listings/:id/status). */
export type OwnerStatus = "active" | "reserved" | "sold" | "given_away";

export const listingKeys = {
  all: ["listing"] as const,
  byId: (id: string) => ["listing", "id", id] as const,
  bySlug: (slug: string) => ["listing", "slug", slug] as const,
  own: (id: string) => ["me", "listing", id] as const,
  ownList: ["me", "listings"] as const,
};

export const listingQuery = (id: string) =>
  queryOptions({
    queryKey: listingKeys.byId(id),
    queryFn: ({ signal }) => apiFetch<ListingPage>(`/api/listings/${encodeURIComponent(id)}`, { signal }),
    ...preloadedData<ListingPage>(`/api/listings/${encodeURIComponent(id)}`),
  });

export const listingBySlugQuery = (slug: string) =>
  queryOptions({
    queryKey: listingKeys.bySlug(slug),
    queryFn: ({ signal }) => apiFetch<ListingPage>(`/api/listings/by-slug/${encodeURIComponent(slug)}`, { signal }),
  });

export const ownListingQuery = (id: string) =>
  queryOptions({
    queryKey: listingKeys.own(id),
    queryFn: ({ signal }) => apiFetch<OwnListing>(`/api/me/listings/${encodeURIComponent(id)}`, { signal }),
    // The edit form is filled once; a background refetch must not overwrite what the user typed.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

export const ownListingsQuery = () =>
  queryOptions({
    queryKey: listingKeys.ownList,
    queryFn: ({ signal }) => apiFetch<ListingCard[]>("/api/me/listings", { signal }),
  });

export function createListing(body: ListingFormInput): Promise<ListingPage> {
  return apiFetch<ListingPage>("/api/listings", { method: "POST", body });
}

export function updateListing(id: string, body: ListingFormInput): Promise<ListingPage> {
  return apiFetch<ListingPage>(`/api/listings/${encodeURIComponent(id)}`, { method: "PUT", body });
}

export function deleteListing(id: string): Promise<void> {
  return apiFetch<void>(`/api/listings/${encodeURIComponent(id)}`, { method: "DELETE" });
}

export function setListingStatus(id: string, status: OwnerStatus): Promise<ListingCard> {
  return apiFetch<ListingCard>(`/api/listings/${encodeURIComponent(id)}/status`, { method: "POST", body: { status } });
}

/** After any change to a listing: everything that may show it is stale (home, search, detail, own lists). */
export function invalidateListingViews(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({
    predicate: ({ queryKey }) => ["home", "search", "listing", "me", "favourites"].includes(String(queryKey[0])),
  });
}

export interface UploadedImage {
  key: string;
  type: string;
}

/**
 * POST /api/images with the raw bytes (not JSON, so not apiFetch). The server decides the type from
 * the bytes; the declared type only has to be one it accepts. A 401 refreshes the session once.
 */
export async function uploadImage(image: Blob, signal?: AbortSignal): Promise<UploadedImage> {
  const send = () =>
    fetch("/api/images", {
      method: "POST",
      body: image,
      headers: { Accept: "application/json", "Content-Type": image.type || "application/octet-stream" },
      credentials: "include",
      signal,
    });
  let response: Response;
  try {
    response = await send();
    if (response.status === 401 && (await refreshSessionOnce())) response = await send();
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    throw new ApiError(0, "NETWORK", "Kunne ikke kontakte Lekebytte. Sjekk nettforbindelsen og prøv igjen.");
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (body as { error?: { code?: string; message?: string } } | null)?.error;
    throw new ApiError(
      response.status,
      (error?.code as ApiError["code"]) ?? "INTERNAL",
      error?.message ?? "Noe gikk galt. Prøv igjen.",
    );
  }
  return body as UploadedImage;
}

/** DELETE /api/images/{key}: only for uploads that no saved listing uses. */
export function deleteImage(key: string): Promise<void> {
  return apiFetch<void>(`/api/images/${key.split("/").map(encodeURIComponent).join("/")}`, { method: "DELETE" });
}

/** Best-effort clean-up of uploads that will not be used; failures are only logged. */
export async function deleteImagesQuietly(keys: readonly string[]): Promise<void> {
  await Promise.all(
    keys.map((key) =>
      deleteImage(key).catch((error: unknown) => {
        console.warn("Could not delete unused upload", key, error);
      }),
    ),
  );
}
