import { useQuery, useQueryClient } from "@tanstack/react-query";
import { CircleCheck, TriangleAlert } from "lucide-react";
import { type ReactNode, useEffect } from "react";
import { DRIFT_CONDITIONS, type DriftCondition } from "../../../domain/drift";
import { countText, formatDateTime } from "../../../domain/format";
import { adminKeys, type DriftReport, driftQuery } from "../../api/admin";
import { isApiError } from "../../api/client";
import { ListLoadFailed } from "../../components/ListStates";
import { NoAccess } from "../../components/NoAccess";
import { RefreshHeading } from "../../components/RefreshHeading";
import { Spinner } from "../../components/ui/Spinner";
import { cn } from "../../lib/cn";
import { toastError } from "../../lib/toast";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import {
  CronSteps,
  DeadLetters,
  DriftSection,
  HeldOrders,
  QueueBacklog,
  RecentErrors,
  UnmovedOrders,
  WebhookRefusals,
} from "./DriftSections";

/** What each condition's section shows of the report. */
const SECTIONS: Record<DriftCondition, (report: DriftReport) => ReactNode> = {
  held_too_long: (r) => <HeldOrders held={r.held_orders} />,
  money_not_moved: (r) => <UnmovedOrders unmoved={r.unmoved_orders} />,
  webhooks_refused: (r) => <WebhookRefusals refusals={r.webhook_refusals} />,
  queue_backlog: (r) => <QueueBacklog queue={r.analytics_queue} />,
  dead_letters: (r) => <DeadLetters dead={r.dead_letters} />,
  cron_failing: (r) => <CronSteps steps={r.cron_steps} />,
  errors: (r) => <RecentErrors errors={r.errors} />,
};

/**
 * /admin/drift "Drift": the operator's page (docs/decisions/134-operations-page.md). Login is
 * required by the router; the server answers its data to admins only, so anyone else sees "Ingen
 * tilgang".
 */
export function DriftPage() {
  useDocumentTitle("Drift");
  const queryClient = useQueryClient();
  const drift = useQuery(driftQuery());
  const forbidden = isApiError(drift.error) && drift.error.status === 403;

  useEffect(() => {
    if (drift.error && !forbidden) toastError("Feil", "Kunne ikke laste driftssiden", { id: "drift-load", error: drift.error });
  }, [drift.error, forbidden]);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: adminKeys.drift });

  if (forbidden) return <NoAccess error={drift.error} text="Du har ikke tilgang til driftssiden. Siden er bare for administratorer." />;

  const report = drift.data;
  const flagged = new Set(report?.conditions ?? []);

  return (
    <div className="mx-auto max-w-3xl px-4 py-6">
      <RefreshHeading title="Drift" onRefresh={refresh} refreshing={drift.isFetching} />

      {drift.isPending ? (
        <Spinner label="Laster driftssiden..." className="py-12" />
      ) : !report ? (
        <ListLoadFailed onRetry={refresh} retrying={drift.isFetching} error={drift.error}>
          Kunne ikke laste driftssiden
        </ListLoadFailed>
      ) : (
        <>
          <p className="mt-1 text-sm text-stone-700">Oppdatert {formatDateTime(report.generated_at)}</p>
          <div
            className={cn(
              "mt-4 flex items-center gap-2 rounded-xl border px-4 py-3 font-semibold",
              flagged.size ? "border-red-200 bg-red-50 text-red-900" : "border-green-200 bg-green-50 text-green-900",
            )}
          >
            {flagged.size ? (
              <TriangleAlert aria-hidden="true" className="size-5 shrink-0" />
            ) : (
              <CircleCheck aria-hidden="true" className="size-5 shrink-0" />
            )}
            {flagged.size ? `${countText(flagged.size, "forhold krever", "forhold krever")} oppfølging` : "Alt ser bra ut"}
          </div>
          <div className="mt-4 space-y-4">
            {DRIFT_CONDITIONS.map((condition) => (
              <DriftSection key={condition} condition={condition} flagged={flagged.has(condition)}>
                {SECTIONS[condition](report)}
              </DriftSection>
            ))}
          </div>
        </>
      )}
    </div>
  );
}
