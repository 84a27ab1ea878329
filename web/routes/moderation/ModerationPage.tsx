import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { Inbox } from "lucide-react";
import { useEffect, useState } from "react";
import { REPORT_STATUS_LABELS, REPORT_STATUSES, type ReportStatus } from "../../../domain/moderation";
import { isApiError } from "../../api/client";
import { moderationKeys, moderationPage, type ModerationCard } from "../../api/moderation";
import { NoAccess } from "../../components/NoAccess";
import { RefreshHeading } from "../../components/RefreshHeading";
import { Button } from "../../components/ui/Button";
import { Spinner } from "../../components/ui/Spinner";
import { toastError } from "../../lib/toast";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { useSession } from "../../lib/useSession";
import { ModerateDialog } from "./ModerateDialog";
import { PaymentCases } from "./PaymentCases";
import { ReportCard } from "./ReportCard";
import { RolesPanel } from "./RolesPanel";

/**
 * /moderation "Moderering" (docs/product.md "Moderation"). Login is required by the
 * router; the role is checked by the server on every call, so a user without it sees "Ingen tilgang".
 */
export function ModerationPage() {
  useDocumentTitle("Moderering");
  const session = useSession();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<ReportStatus>("pending");
  const [handling, setHandling] = useState<ModerationCard | null>(null);
  const reports = useInfiniteQuery({
    queryKey: moderationKeys.reports(status),
    queryFn: ({ pageParam, signal }) => moderationPage(status, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (last) => last.next_offset ?? undefined,
    // A failure is shown at once ("Prøv igjen" and "Oppdater" ask again); a 403 is final.
    retry: false,
  });
  const forbidden = isApiError(reports.error) && reports.error.status === 403;

  useEffect(() => {
    if (reports.error && !forbidden)
      toastError("Feil", "Kunne ikke laste moderering-dashboard", { id: "moderation-load", error: reports.error });
  }, [reports.error, forbidden]);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: moderationKeys.all });

  if (forbidden) {
    return <NoAccess error={reports.error} text="Du har ikke tilgang til moderering. Siden er bare for moderatorer og administratorer." />;
  }

  const cards = reports.data?.pages.flatMap((p) => p.items) ?? [];
  const label = REPORT_STATUS_LABELS[status];

  return (
    <div className="mx-auto max-w-3xl px-4 py-6">
      <RefreshHeading title="Moderering" onRefresh={refresh} refreshing={reports.isFetching} />

      <PaymentCases viewer={session.user} />

      <div role="group" aria-label="Status" className="mt-4 flex gap-1 overflow-x-auto rounded-xl bg-stone-100 p-1">
        {REPORT_STATUSES.map((s) => (
          <button
            key={s}
            type="button"
            aria-pressed={status === s}
            onClick={() => setStatus(s)}
            className="min-h-11 flex-1 rounded-lg px-3 text-sm font-semibold whitespace-nowrap text-stone-700 focus-visible:outline-offset-0 aria-pressed:bg-white aria-pressed:text-brand-800 aria-pressed:shadow-sm"
          >
            {REPORT_STATUS_LABELS[s]}
          </button>
        ))}
      </div>

      {reports.isPending ? (
        <Spinner label="Laster rapporter..." className="py-12" />
      ) : reports.error ? (
        <div className="mt-6 space-y-3">
          <p className="text-stone-700">Kunne ikke laste moderering-dashboard</p>
          <Button variant="secondary" size="sm" onClick={refresh}>
            Prøv igjen
          </Button>
        </div>
      ) : cards.length === 0 ? (
        <div className="mt-6 flex flex-col items-center rounded-2xl border border-dashed border-stone-300 bg-white p-8 text-center">
          <Inbox aria-hidden="true" className="size-8 text-stone-500" />
          <h2 className="mt-2 text-lg font-bold text-stone-900">Ingen rapporter</h2>
          <p className="mt-1 text-stone-700">Det er ingen rapporter med status {label.toLowerCase()} for øyeblikket.</p>
        </div>
      ) : (
        <ul className="mt-4 space-y-3">
          {cards.map((card) => (
            <li key={`${card.target_type}:${card.target_id}`}>
              <ReportCard card={card} viewer={session.user} onHandle={() => setHandling(card)} onChanged={refresh} />
            </li>
          ))}
        </ul>
      )}
      {reports.hasNextPage ? (
        <div className="mt-4 flex justify-center">
          <Button variant="secondary" onClick={() => void reports.fetchNextPage()} disabled={reports.isFetchingNextPage}>
            {reports.isFetchingNextPage ? "Laster..." : "Vis flere"}
          </Button>
        </div>
      ) : null}

      {session.user?.role === "admin" ? <RolesPanel /> : null}

      <ModerateDialog
        card={handling}
        onClose={() => setHandling(null)}
        onDone={() => {
          setHandling(null);
          refresh();
        }}
      />
    </div>
  );
}
