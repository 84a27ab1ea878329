import { useQuery, useQueryClient } from "@tanstack/react-query";
import { BellRing, RefreshCw } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { Link } from "../../components/Link";
import { chatKeys, sendTestNotification, testNotificationsQuery } from "../../api/chat";
import { isApiError } from "../../api/client";
import { Button, buttonClasses } from "../../components/ui/Button";
import { PageSpinner } from "../../components/ui/Spinner";
import { toastError, toastSuccess } from "../../lib/toast";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { useSession } from "../../lib/useSession";
import { useUnreadCount } from "../../lib/useUnreadCount";
import { NotFound } from "../fallback/NotFound";

const DEFAULT_TEXT = "Test melding for notifikasjoner";

/**
 * /test-notifications (docs/product.md "Notification test"): a message from the system user into the
 * user's latest conversation, to try the live badge, the inbox and the e-mail. Local mode only: the
 * endpoint answers 404 in production and so does this page.
 */
export function TestNotificationsPage() {
  useDocumentTitle("Test av varsler");
  const session = useSession();
  const signedIn = session.status === "signed-in";
  const queryClient = useQueryClient();
  const available = useQuery(testNotificationsQuery());
  const unread = useUnreadCount(signedIn);
  const [text, setText] = useState(DEFAULT_TEXT);
  const [busy, setBusy] = useState(false);
  const [refreshing, setRefreshing] = useState(false);
  const inputId = useId();

  if (available.isPending) return <PageSpinner />;
  if (available.error) return <NotFound />;

  const refresh = async () => {
    setRefreshing(true);
    await queryClient.refetchQueries({ queryKey: chatKeys.unreadCount });
    setRefreshing(false);
  };

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (!signedIn) return toastError("Feil", "Ikke logget inn");
    setBusy(true);
    try {
      await sendTestNotification(text);
      toastSuccess("Test-melding opprettet!");
    } catch (error) {
      if (isApiError(error) && error.status === 401) toastError("Feil", "Ikke logget inn");
      else if (isApiError(error) && error.status === 404) toastError("Feil", "Ingen samtaler funnet");
      // Over the limit: the server says why and how long to wait.
      else if (isApiError(error) && error.status === 429) toastError("Kunne ikke lage test-melding", error.message);
      else if (isApiError(error) && error.code !== "NETWORK") toastError("Feil", "Kunne ikke lage test-melding");
      else toastError("Feil", "Noe gikk galt ved opprettelse av test-melding");
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="mx-auto max-w-xl px-4 py-6 sm:py-8">
      <h1 className="text-2xl font-extrabold tracking-tight text-stone-900 sm:text-3xl">Test av varsler</h1>

      <section
        aria-labelledby={`${inputId}-count`}
        className="mt-5 flex items-center justify-between gap-3 rounded-2xl border border-stone-200 bg-white p-4"
      >
        <div>
          <h2 id={`${inputId}-count`} className="text-sm font-semibold text-stone-700">
            Uleste meldinger
          </h2>
          <p className="text-3xl font-extrabold text-stone-900" aria-live="polite">
            {signedIn ? (unread ?? "–") : "–"}
          </p>
        </div>
        <Button variant="secondary" size="sm" onClick={() => void refresh()} disabled={!signedIn || refreshing}>
          <RefreshCw aria-hidden="true" className="size-4" />
          Oppdater
        </Button>
      </section>

      <section className="mt-5 rounded-2xl border border-stone-200 bg-white p-4 text-stone-800">
        <h2 className="flex items-center gap-2 text-lg font-bold text-stone-900">
          <BellRing aria-hidden="true" className="size-5 text-brand-700" />
          Slik fungerer varslene
        </h2>
        <ul className="mt-2 list-disc space-y-1 pl-5">
          <li>Telleren på meldingsikonet øverst oppdateres med en gang en ny melding kommer, i alle faner du har åpne.</li>
          <li>Innboksen under Meldinger viser siste melding og antall uleste i hver samtale.</li>
          <li>Er du borte fra en samtale i 15 minutter, får du en e-post om nye meldinger (høyst én i timen per samtale).</li>
          <li>Test-meldingen kommer fra Lekebytte i den samtalen din som sist hadde aktivitet.</li>
        </ul>
      </section>

      <form onSubmit={create} className="mt-5 space-y-3 rounded-2xl border border-stone-200 bg-white p-4">
        <label htmlFor={inputId} className="block font-semibold text-stone-900">
          Test-melding
        </label>
        <input
          id={inputId}
          value={text}
          onChange={(e) => setText(e.target.value)}
          className="block min-h-11 w-full rounded-xl border border-stone-400 px-3 text-base text-stone-900 focus:border-brand-700"
        />
        <Button type="submit" disabled={busy || !text.trim()} className="w-full">
          {busy ? "Oppretter..." : "Opprett Test-melding"}
        </Button>
      </form>

      <nav aria-label="Videre" className="mt-5 flex flex-wrap gap-3">
        <Link to="/messages" className={buttonClasses("secondary", "sm")}>
          Gå til meldinger
        </Link>
        <Link to="/create-listing" className={buttonClasses("secondary", "sm")}>
          Legg ut en annonse
        </Link>
      </nav>
    </div>
  );
}
