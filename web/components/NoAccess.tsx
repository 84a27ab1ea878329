import { ShieldAlert } from "lucide-react";
import { STAFF_REFUSAL_MESSAGES } from "../../domain/moderation";
import { isApiError } from "../api/client";

/**
 * "Ingen tilgang" on a staff page whose data the server refused (403): a suspended moderator or
 * admin is told why (decision 052), anyone else that the page is not for them (`text`).
 */
export function NoAccess({ error, text }: { error: unknown; text: string }) {
  const suspended = isApiError(error) && error.message === STAFF_REFUSAL_MESSAGES.suspended;
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 text-center">
      <ShieldAlert aria-hidden="true" className="mx-auto size-10 text-stone-500" />
      <h1 className="mt-3 text-2xl font-bold text-stone-900">Ingen tilgang</h1>
      <p className="mt-2 text-stone-700">{suspended ? STAFF_REFUSAL_MESSAGES.suspended : text}</p>
    </div>
  );
}
