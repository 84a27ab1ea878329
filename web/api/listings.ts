// The listings feature: the home page's sections, listings (detail, create, edit, status, delete)
// and their photos (/api/images). The seller's own listings (/api/me/listings) are in account.ts.
import { queryOptions, type QueryClient } from "@tanstack/react-query";
import type { OwnerStatus } from "../../domain/listing-lifecycle";
import type { HomeSections, ListingFormInput } from "../../domain/schemas/listing";
import { api, call, type ResponseBody } from "./client";
import { preloadedData } from "./preloaded";

/** GET /api/listings/:id and /by-slug/:slug: the detail plus up to 4 more active listings from the seller. */
export type ListingPage = ResponseBody<(typeof api.listings)[":id"]["$get"]>;

/** The states a seller may set (POST /api/listings/:id/status). */
export type { OwnerStatus };

/** POST /api/images: the key the server chose and the type it read from the bytes. */
export type UploadedImage = ResponseBody<typeof api.images.$post>;

const param = (value: string) => encodeURIComponent(value);

export const listingKeys = {
  home: ["home"] as const,
  all: ["listing"] as const,
  byId: (id: string) => ["listing", "id", id] as const,
  bySlug: (slug: string) => ["listing", "slug", slug] as const,
};

export const homeQuery = () =>
  queryOptions({
    queryKey: listingKeys.home,
    queryFn: ({ signal }) => call(api.home.$get(undefined, { init: { signal } })),
    ...preloadedData<HomeSections>("/api/home"),
  });

export const listingQuery = (id: string) =>
  queryOptions({
    queryKey: listingKeys.byId(id),
    queryFn: ({ signal }) => call(api.listings[":id"].$get({ param: { id: param(id) } }, { init: { signal } })),
    ...preloadedData<ListingPage>(`/api/listings/${encodeURIComponent(id)}`),
  });

export const listingBySlugQuery = (slug: string) =>
  queryOptions({
    queryKey: listingKeys.bySlug(slug),
    queryFn: ({ signal }) => call(api.listings["by-slug"][":slug"].$get({ param: { slug: param(slug) } }, { init: { signal } })),
  });

export function createListing(body: ListingFormInput) {
  return call(api.listings.$post({ json: body }));
}

export function updateListing(id: string, body: ListingFormInput) {
  return call(api.listings[":id"].$put({ param: { id: param(id) }, json: body }));
}

export function deleteListing(id: string): Promise<void> {
  return call(api.listings[":id"].$delete({ param: { id: param(id) } }));
}

export function setListingStatus(id: string, status: OwnerStatus) {
  return call(api.listings[":id"].status.$post({ param: { id: param(id) }, json: { status } }));
}

/** After any change to a listing: everything that may show it is stale (home, search, detail, own lists). */
export function invalidateListingViews(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({
    predicate: ({ queryKey }) => ["home", "search", "listing", "me", "favourites"].includes(String(queryKey[0])),
  });
}

/**
 * POST /api/images with the raw bytes (not JSON). The server decides the type from the bytes; the
 * declared type only has to be one it accepts. A 401 refreshes the session once (sessionFetch).
 */
export function uploadImage(image: Blob, signal?: AbortSignal): Promise<UploadedImage> {
  return call(
    api.images.$post(undefined, { init: { body: image, signal, headers: { "Content-Type": image.type || "application/octet-stream" } } }),
  );
}

/** DELETE /api/images/{key}: only for uploads that no saved listing uses. */
export function deleteImage(key: string): Promise<void> {
  return call(api.images[":key{.+}"].$delete({ param: { key: key.split("/").map(param).join("/") } }));
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
