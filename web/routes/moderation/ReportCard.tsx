import { ChevronDown, ExternalLink } from "lucide-react";
import { useId, useState, type ReactNode } from "react";
import { Link } from "../../components/Link";
import { countText, formatDate } from "../../../domain/format";
import {
  REPORT_PRIORITY_LABELS,
  REPORT_STATUS_LABELS,
  REPORT_TARGET_WORDS,
  STAFF_REFUSAL_MESSAGES,
  staffRefusal,
  type ReportPriority,
  type ReportStatus,
} from "../../../domain/moderation";
import type { SessionUser } from "../../api/auth";
import { unhideTarget, type ModerationCard } from "../../api/moderation";
import { Button } from "../../components/ui/Button";
import { cn } from "../../lib/cn";
import { toastError, toastSuccess } from "../../lib/toast";

const PRIORITY_TONES: Record<ReportPriority, string> = {
  low: "bg-stone-100 text-stone-800",
  normal: "bg-sky-100 text-sky-900",
  high: "bg-amber-100 text-amber-950",
  urgent: "bg-red-600 text-white",
};

const STATUS_TONES: Record<ReportStatus, string> = {
  pending: "bg-accent-200 text-accent-900",
  reviewed: "bg-sky-100 text-sky-900",
  resolved: "bg-emerald-100 text-emerald-900",
  dismissed: "bg-stone-200 text-stone-800",
};

/** A badge with its own colours (ui/Badge's neutral background would compete with them). */
function Pill({ tone, children }: { tone: string; children: ReactNode }) {
  return (
    <span className={cn("inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap", tone)}>
      {children}
    </span>
  );
}

/** One dashboard card: every report with this status on one target (docs/product.md "Moderation"). */
export function ReportCard({
  card,
  viewer,
  onHandle,
  onChanged,
}: {
  card: ModerationCard;
  /** The signed-in staff member: what the server would refuse them is not offered (decision 052). */
  viewer: Pick<SessionUser, "id" | "role"> | null;
  onHandle: () => void;
  onChanged: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const detailsId = useId();
  const { target } = card;
  // The server's rule: no one moderates themselves, a moderator never acts on a moderator or an admin.
  const owner = target.user ? { role: target.user.role, self: target.user.id === viewer?.id } : null;
  const refusal = staffRefusal({ role: viewer?.role ?? "user", suspended: false }, "review", owner);
  const mayAct = refusal === null;
  const decidable = mayAct && (card.status === "pending" || card.status === "reviewed");
  const suspended = mayAct && target.user?.suspended_until && (card.target_type === "user" || card.target_type === "profile");

  const unhide = async () => {
    setBusy(true);
    try {
      await unhideTarget(card.target_type, card.target_id, null);
      toastSuccess("Handling utført");
      onChanged();
    } catch (error) {
      toastError("Feil", "Kunne ikke utføre handling", { error });
    } finally {
      setBusy(false);
    }
  };

  return (
    <article className="rounded-2xl border border-stone-200 bg-white shadow-sm">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={detailsId}
        onClick={() => setOpen(!open)}
        className="flex w-full items-start gap-3 p-4 text-left"
      >
        <div className="min-w-0 flex-1">
          <h2 className="truncate font-semibold text-stone-900">{card.target_title}</h2>
          <div className="mt-1.5 flex flex-wrap gap-1.5">
            <Pill tone={STATUS_TONES[card.status]}>{REPORT_STATUS_LABELS[card.status]}</Pill>
            <Pill tone={PRIORITY_TONES[card.priority]}>{REPORT_PRIORITY_LABELS[card.priority]}</Pill>
            {card.report_count > 1 ? <Pill tone="bg-stone-800 text-white">{card.report_count} rapporter</Pill> : null}
            {target.is_hidden ? <Pill tone="bg-red-100 text-red-900">{target.auto_hidden ? "Skjult automatisk" : "Skjult"}</Pill> : null}
          </div>
          <p className="mt-1.5 text-sm text-stone-700">
            <time dateTime={card.created_at}>{formatDate(card.created_at)}</time> · {card.reporter_display_name}
          </p>
        </div>
        <ChevronDown aria-hidden="true" className={cn("mt-1 size-5 shrink-0 text-stone-600 transition-transform", open && "rotate-180")} />
      </button>
      {open ? (
        <div id={detailsId} className="border-t border-stone-200 px-4 pt-3 pb-4">
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="font-medium text-stone-600">Årsak</dt>
            <dd className="text-stone-900">{card.reason}</dd>
            <dt className="font-medium text-stone-600">Beskrivelse</dt>
            <dd className="break-words whitespace-pre-line text-stone-900">{card.description || "–"}</dd>
            <dt className="font-medium text-stone-600">Type</dt>
            <dd className="text-stone-900">{REPORT_TARGET_WORDS[card.target_type]}</dd>
            <dt className="font-medium text-stone-600">Mål-ID</dt>
            <dd className="font-mono text-xs break-all text-stone-900">{card.target_id}</dd>
            {target.user ? (
              <>
                <dt className="font-medium text-stone-600">Bruker</dt>
                <dd className="text-stone-900">
                  {target.user.display_name}
                  {target.user.warning_count ? ` · ${countText(target.user.warning_count, "advarsel", "advarsler")}` : ""}
                  {target.user.suspended_until ? ` · utestengt til ${formatDate(target.user.suspended_until)}` : ""}
                </dd>
              </>
            ) : null}
            {target.hidden_reason ? (
              <>
                <dt className="font-medium text-stone-600">Skjult</dt>
                <dd className="text-stone-900">{target.hidden_reason}</dd>
              </>
            ) : null}
          </dl>
          {target.preview !== null ? (
            <blockquote className="mt-3 rounded-xl bg-stone-100 px-3 py-2 text-sm whitespace-pre-line text-stone-900">
              {target.preview}
            </blockquote>
          ) : null}
          {!target.exists ? <p className="mt-3 text-sm text-stone-700">Innholdet finnes ikke lenger.</p> : null}
          {card.reports.length > 1 ? (
            <ul className="mt-3 space-y-1 text-sm text-stone-800">
              {card.reports.map((r) => (
                <li key={r.id}>
                  {formatDate(r.created_at)} · {r.reporter_display_name}: {r.reason}
                  {r.description ? ` – ${r.description}` : ""}
                </li>
              ))}
            </ul>
          ) : null}
          {card.reports[0]?.moderator_notes ? (
            <p className="mt-3 text-sm text-stone-800">Notat: {card.reports[0].moderator_notes}</p>
          ) : null}
          {refusal && refusal !== "not_staff" ? (
            <p className="mt-3 rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-950">{STAFF_REFUSAL_MESSAGES[refusal]}</p>
          ) : null}
          <div className="mt-4 flex flex-wrap gap-2">
            {target.url ? (
              <Link
                to={target.url}
                className="inline-flex min-h-11 items-center gap-1.5 rounded-xl px-2 text-sm font-semibold text-brand-800 underline"
              >
                <ExternalLink aria-hidden="true" className="size-4" />
                Åpne {REPORT_TARGET_WORDS[card.target_type]}
              </Link>
            ) : null}
            {decidable ? (
              <Button size="sm" onClick={onHandle}>
                Behandle
              </Button>
            ) : null}
            {mayAct && card.target_type === "listing" && target.is_hidden ? (
              <Button size="sm" variant="secondary" onClick={() => void unhide()} disabled={busy}>
                Vis annonsen igjen
              </Button>
            ) : null}
            {mayAct && card.target_type === "review" && target.is_hidden ? (
              <Button size="sm" variant="secondary" onClick={() => void unhide()} disabled={busy}>
                Vis vurderingen igjen
              </Button>
            ) : null}
            {suspended ? (
              <Button size="sm" variant="secondary" onClick={() => void unhide()} disabled={busy}>
                Opphev utestenging
              </Button>
            ) : null}
          </div>
        </div>
      ) : null}
    </article>
  );
}
