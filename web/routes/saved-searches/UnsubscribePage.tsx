import { useQuery } from "@tanstack/react-query";
import { BellOff, CircleAlert } from "lucide-react";
import { useLocation } from "react-router-dom";
import { Link } from "../../components/Link";
import { SAVED_SEARCH_TEXTS, SAVED_SEARCHES_PATH } from "../../../domain/saved-searches";
import { buttonClasses } from "../../components/ui/Button";
import { Card } from "../../components/ui/Card";
import { Spinner } from "../../components/ui/Spinner";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { savedSearchKeys, unsubscribeSavedSearch } from "../../api/saved-searches";
import { ErrorCode } from "../../components/ErrorCode";

/**
 * /lagrede-sok/avmeld?token=…: the one-click unsubscribe link of alert e-mails. Works signed out:
 * the page switches the alert off as soon as it opens (a link checker that fetches the address
 * without running the page changes nothing). Opening it again does no harm.
 */
export function UnsubscribePage() {
  useDocumentTitle("Slå av varsel");
  const token = new URLSearchParams(useLocation().search).get("token") ?? "";
  const result = useQuery({
    queryKey: savedSearchKeys.unsubscribe(token),
    queryFn: () => unsubscribeSavedSearch(token),
    enabled: token !== "",
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
    refetchOnWindowFocus: false,
  });

  const failed = token === "" || result.isError;
  return (
    <div className="mx-auto max-w-xl px-4 py-10">
      <Card className="p-6 text-center sm:p-8">
        {failed ? (
          <>
            <CircleAlert aria-hidden="true" className="mx-auto size-10 text-red-700" />
            <h1 className="mt-3 text-2xl font-extrabold text-stone-900">Kunne ikke slå av varselet</h1>
            <p className="mt-2 text-stone-700">{result.error?.message ?? SAVED_SEARCH_TEXTS.linkInvalid}</p>
            <ErrorCode error={result.error} className="mt-2" />
            <Link to={SAVED_SEARCHES_PATH} className={buttonClasses("primary", "md", "mt-6")}>
              Gå til Lagrede søk
            </Link>
          </>
        ) : result.isPending ? (
          <>
            <h1 className="sr-only">Slå av varsel</h1>
            <Spinner label="Slår av varselet..." className="py-6" />
          </>
        ) : (
          <>
            <BellOff aria-hidden="true" className="mx-auto size-10 text-brand-700" />
            <h1 className="mt-3 text-2xl font-extrabold text-stone-900">Varselet er slått av</h1>
            <p className="mt-2 break-words text-stone-700">
              Du får ikke lenger e-post om nye annonser for «{result.data.name}». Andre lagrede søk og varsler er som før.
            </p>
            <div className="mt-6 flex flex-col justify-center gap-2 sm:flex-row">
              <Link to={SAVED_SEARCHES_PATH} className={buttonClasses("primary")}>
                Se lagrede søk
              </Link>
              <Link to="/" className={buttonClasses("secondary")}>
                Gå til forsiden
              </Link>
            </div>
          </>
        )}
      </Card>
    </div>
  );
}
