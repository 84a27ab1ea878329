// The account feature: the signed-in user's own account under /api/me (profile, own listings, own
// moderation notices, data export, deletion) and anyone's public profile (/api/users/:id).
// Everything under "me" is removed on sign-out (auth.ts applySignedOut).
import { queryOptions, type QueryClient } from "@tanstack/react-query";
import type { InferRequestType } from "hono/client";
import { authKeys, type Session } from "./auth";
import { api, call, type ResponseBody } from "./client";
import { preloadedData } from "./preloaded";

/** GET /api/me: the signed-in user's account and profile. */
export type Profile = ResponseBody<typeof api.me.$get>;
export type ProfileUpdate = InferRequestType<typeof api.me.profile.$patch>["json"];

/** GET /api/me/listings/:id: the owner's listing with its description (for the edit form). */
export type OwnListing = ResponseBody<(typeof api.me.listings)[":id"]["$get"]>;

/** GET /api/me/moderation: the user's own warnings and suspension. */
export type OwnModeration = ResponseBody<typeof api.me.moderation.$get>;

/** GET /api/users/:id: the public profile. */
export type PublicProfileBody = ResponseBody<(typeof api.users)[":id"]["$get"]>;
export type ReviewBody = PublicProfileBody["reviews"][number];

const param = (value: string) => encodeURIComponent(value);

export const accountKeys = {
  profile: ["me", "profile"] as const,
  listing: (id: string) => ["me", "listing", id] as const,
  listings: ["me", "listings"] as const,
  moderation: ["me", "moderation"] as const,
  sessions: ["me", "sessions"] as const,
  publicProfile: (userId: string) => ["users", userId] as const,
};

export const profileQuery = () =>
  queryOptions({
    queryKey: accountKeys.profile,
    queryFn: ({ signal }) => call(api.me.$get(undefined, { init: { signal } })),
  });

export function updateProfile(body: ProfileUpdate): Promise<Profile> {
  return call(api.me.profile.$patch({ json: body }));
}

/** Store the saved profile and keep the header's name (from the session) in step with it. */
export function applyProfile(queryClient: QueryClient, profile: Profile): void {
  queryClient.setQueryData(accountKeys.profile, profile);
  queryClient.setQueryData<Session | null>(authKeys.session, (session) =>
    session ? { ...session, user: { ...session.user, display_name: profile.display_name } } : session,
  );
}

export const ownListingQuery = (id: string) =>
  queryOptions({
    queryKey: accountKeys.listing(id),
    queryFn: ({ signal }) => call(api.me.listings[":id"].$get({ param: { id: param(id) } }, { init: { signal } })),
    // The edit form is filled once; a background refetch must not overwrite what the user typed.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

export const ownListingsQuery = () =>
  queryOptions({
    queryKey: accountKeys.listings,
    queryFn: ({ signal }) => call(api.me.listings.$get(undefined, { init: { signal } })),
  });

export const ownModerationQuery = () =>
  queryOptions({
    queryKey: accountKeys.moderation,
    queryFn: ({ signal }) => call(api.me.moderation.$get(undefined, { init: { signal } })),
  });

/** DELETE /api/me with the password again (decision 019). */
export function deleteAccount(password: string): Promise<void> {
  return call(api.me.$delete({ json: { password } }));
}

/** POST /api/me/export with the password again: everything stored about the user (the profile page saves it as a file). */
export function exportMyData(password: string) {
  return call(api.me.export.$post({ json: { password } }));
}

/** The first page comes inlined in /bruker/{id} (the edge page) when the app starts there. */
export const publicProfileQuery = (userId: string) =>
  queryOptions({
    queryKey: accountKeys.publicProfile(userId),
    queryFn: ({ signal }) => call(api.users[":id"].$get({ param: { id: param(userId) }, query: {} }, { init: { signal } })),
    retry: false,
    ...preloadedData<PublicProfileBody>(`/api/users/${encodeURIComponent(userId)}`),
  });

/** "Vis flere": the next page of reviews. */
export function profileReviewsPage(userId: string, offset: number) {
  return call(api.users[":id"].$get({ param: { id: param(userId) }, query: { offset: String(offset) } }));
}

// The profile's "Endre passord", "Endre e-post" and "Innlogget på" (decision 125).

/** GET /api/me/sessions: one entry per signed-in device, this one first. */
export type Device = ResponseBody<typeof api.me.sessions.$get>[number];
export type PasswordChange = InferRequestType<typeof api.me.password.$post>["json"];

export const sessionsQuery = () =>
  queryOptions({
    queryKey: accountKeys.sessions,
    queryFn: ({ signal }) => call(api.me.sessions.$get(undefined, { init: { signal } })),
  });

export function changePassword(body: PasswordChange): Promise<void> {
  return call(api.me.password.$post({ json: body }));
}

/** A confirmation link goes to `email`; the address changes only when it is opened. */
export function changeEmail(email: string, password: string) {
  return call(api.me.email.$post({ json: { email, password } }));
}

/** "Logg ut" of one device. */
export function endSession(id: string): Promise<void> {
  return call(api.me.sessions[":id"].$delete({ param: { id: param(id) } }));
}

/** "Logg ut alle andre": every session but this one ends. */
export function signOutOtherSessions(): Promise<void> {
  return call(api.me.sessions["sign-out-others"].$post());
}
