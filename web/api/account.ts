import { queryOptions, type QueryClient } from "@tanstack/react-query";
import type { InferRequestType } from "hono/client";
import { osloDay } from "../../domain/format";
import { api, call, type SuccessBody } from "./client";
import { sessionQuery, type Session } from "./auth";

/** GET /api/me: the signed-in user's account and profile. */
export type Profile = SuccessBody<Awaited<ReturnType<typeof api.me.$get>>>;

export type ProfileUpdate = InferRequestType<typeof api.me.profile.$patch>["json"];

// Under "me" with the listings' own keys (["me", "listings"]); sign-out removes them all.
export const profileKey = ["me", "profile"] as const;

export const profileQuery = () =>
  queryOptions({
    queryKey: profileKey,
    queryFn: ({ signal }) => call(api.me.$get(undefined, { init: { signal } })),
  });

export function updateProfile(body: ProfileUpdate): Promise<Profile> {
  return call(api.me.profile.$patch({ json: body }));
}

/** Store the saved profile and keep the header's name (from the session) in step with it. */
export function applyProfile(queryClient: QueryClient, profile: Profile): void {
  queryClient.setQueryData(profileKey, profile);
  queryClient.setQueryData<Session | null>(sessionQuery().queryKey, (session) =>
    session ? { ...session, user: { ...session.user, display_name: profile.display_name } } : session,
  );
}

/** DELETE /api/me with the password again (decision 019). */
export function deleteAccount(password: string): Promise<void> {
  return call(api.me.$delete({ json: { password } }));
}

/** "lekebytte-mine-data-2026-03-03.json": the Oslo date, whatever the device's time zone. */
export function exportFileName(now: Date = new Date()): string {
  return `lekebytte-mine-data-${osloDay(now)}.json`;
}

/**
 * POST /api/me/export with the password again, through the API client (so an expired access cookie
 * is refreshed first, which a plain link cannot do), saved as a JSON file.
 */
export async function downloadMyData(password: string): Promise<void> {
  const data = await call(api.me.export.$post({ json: { password } }));
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = exportFileName();
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers start the download after click() returns; give them a moment before revoking.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
