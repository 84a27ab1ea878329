import type { ReactNode } from "react";
import { DRIFT_TEXTS, HELD_RULE_TEXTS, type DriftCondition } from "../../../domain/drift";
import { countText, formatDateTime, formatMinorUnits, formatNumber } from "../../../domain/format";
import { ORDER_STATE_LABELS } from "../../../domain/order-texts";
import type { DriftReport } from "../../api/admin";
import { errorCodeText } from "../../components/ErrorCode";
import { Badge } from "../../components/ui/Badge";

const PROVIDERS: Record<string, string> = { stripe: "Stripe", vipps: "Vipps" };
/** Why a webhook was refused, by the error code it was answered with. */
const REFUSAL_REASONS: Record<string, string> = {
  INVALID_SIGNATURE: "Ugyldig signatur",
  VALIDATION: "Ugyldig innhold",
  SERVICE_UNAVAILABLE: "Betalingen er ikke satt opp",
  PAYLOAD_TOO_LARGE: "For stor",
  INTERNAL: "Feil hos oss",
};

/** One condition of the page: its heading, whether it needs attention, and what it shows. */
export function DriftSection({ condition, flagged, children }: { condition: DriftCondition; flagged: boolean; children: ReactNode }) {
  const headingId = `drift-${condition}`;
  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id={headingId} className="text-lg font-bold text-stone-900">
          {DRIFT_TEXTS[condition].title}
        </h2>
        <Badge tone={flagged ? "danger" : "success"}>{flagged ? "Krever oppfølging" : "I orden"}</Badge>
      </div>
      <div className="mt-2 text-sm text-stone-800">{children}</div>
    </section>
  );
}

function None({ condition }: { condition: DriftCondition }) {
  return <p className="text-stone-700">{DRIFT_TEXTS[condition].none}</p>;
}

function Shown({ shown, total }: { shown: number; total: number }) {
  return total > shown ? <p className="mt-2 text-stone-700">{`Viser ${shown} av ${formatNumber(total)}.`}</p> : null;
}

function Rows({ children }: { children: ReactNode }) {
  return <ul className="divide-y divide-stone-100">{children}</ul>;
}

function OrderId({ id }: { id: string }) {
  return <span className="block font-mono text-xs break-all text-stone-600">{id}</span>;
}

export function HeldOrders({ held }: { held: DriftReport["held_orders"] }) {
  if (held.total === 0) return <None condition="held_too_long" />;
  return (
    <>
      <Rows>
        {held.items.map((order) => (
          <OrderItem
            key={order.id}
            order={order}
            when={`betalt ${formatDateTime(order.paid_at)}`}
            problem={`${HELD_RULE_TEXTS[order.state]} (siden ${formatDateTime(order.overdue_since)})`}
          />
        ))}
      </Rows>
      <Shown shown={held.items.length} total={held.total} />
    </>
  );
}

/** One order on the page: its listing, state, amount and when, what is wrong, and its id. */
function OrderItem({
  order,
  when,
  problem,
}: {
  order: { id: string; listing_title: string | null; state: keyof typeof ORDER_STATE_LABELS; amount: number };
  when: string;
  problem: string;
}) {
  return (
    <li className="py-2">
      <p className="font-semibold text-stone-900">{order.listing_title ?? "Slettet annonse"}</p>
      <p>
        {ORDER_STATE_LABELS[order.state]} · {formatMinorUnits(order.amount)} · {when}
      </p>
      <p className="text-red-800">{problem}</p>
      <OrderId id={order.id} />
    </li>
  );
}

export function UnmovedOrders({ unmoved }: { unmoved: DriftReport["unmoved_orders"] }) {
  if (unmoved.total === 0) return <None condition="money_not_moved" />;
  return (
    <>
      <Rows>
        {unmoved.items.map((order) => (
          <OrderItem
            key={order.id}
            order={order}
            when={`avgjort ${formatDateTime(order.settled_at)}`}
            problem={order.payout_error ?? "Betalingstilbyderen har ikke bekreftet at pengene er flyttet."}
          />
        ))}
      </Rows>
      <Shown shown={unmoved.items.length} total={unmoved.total} />
    </>
  );
}

export function WebhookRefusals({ refusals }: { refusals: DriftReport["webhook_refusals"] }) {
  if (refusals.total === 0) return <None condition="webhooks_refused" />;
  return (
    <Rows>
      {refusals.items.map((r) => (
        <li key={`${r.provider}:${r.code}`} className="flex flex-wrap justify-between gap-x-3 py-2">
          <span>
            <span className="font-semibold text-stone-900">{PROVIDERS[r.provider] ?? r.provider}</span> ·{" "}
            {REFUSAL_REASONS[r.code] ?? r.code}
          </span>
          <span>
            {countText(r.count, "gang", "ganger")}, sist {formatDateTime(r.last_at)}
          </span>
        </li>
      ))}
    </Rows>
  );
}

export function QueueBacklog({ queue }: { queue: DriftReport["analytics_queue"] }) {
  if ("unavailable" in queue) return <p className="text-stone-700">Køen svarte ikke på hvor mye som venter: {queue.unavailable}</p>;
  if (queue.backlog_count === 0) return <p className="text-stone-700">Ingen meldinger venter i køen.</p>;
  return (
    <p>
      {countText(queue.backlog_count, "melding venter", "meldinger venter")} ({formatNumber(Math.ceil(queue.backlog_bytes / 1024))} kB)
      {queue.oldest_at ? `, den eldste fra ${formatDateTime(queue.oldest_at)}` : ""}.
    </p>
  );
}

export function DeadLetters({ dead }: { dead: DriftReport["dead_letters"] }) {
  return (
    <>
      <p>
        {countText(dead.last_day, "ny", "nye")} siste døgn · {dead.at_least ? "minst " : ""}
        {formatNumber(dead.total)} lagret i alt
        {dead.newest_at ? ` · nyeste ${formatDateTime(dead.newest_at)}` : ""}
      </p>
      <p className="mt-1 text-stone-700">
        De ligger i den private bøtta under <span className="font-mono">analytics/dead-letter/</span>.
      </p>
    </>
  );
}

export function CronSteps({ steps }: { steps: DriftReport["cron_steps"] }) {
  if (steps.length === 0) return <p className="text-stone-700">Timejobben har ikke kjørt ennå.</p>;
  return (
    <Rows>
      {steps.map((s) => (
        <li key={s.step} className="py-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="font-semibold text-stone-900">
              {s.label} <span className="font-mono text-xs font-normal text-stone-600">{s.step}</span>
            </p>
            <Badge tone={s.last_ok ? "success" : "danger"}>{s.last_ok ? "Lyktes" : "Feilet"}</Badge>
          </div>
          <p>
            Sist kjørt {formatDateTime(s.last_run_at)} · {formatNumber(s.last_ms)} ms
            {s.failures_in_a_row > 0 ? ` · ${countText(s.failures_in_a_row, "feil", "feil")} på rad` : ""}
          </p>
          {s.last_error ? <p className="font-mono text-xs break-all text-red-800">{s.last_error}</p> : null}
        </li>
      ))}
    </Rows>
  );
}

export function RecentErrors({ errors }: { errors: DriftReport["errors"] }) {
  if (errors.total === 0) return <None condition="errors" />;
  return (
    <>
      <p>
        {countText(errors.total, "feil", "feil")} siste time{errors.capped ? " (bare de første lagres; det kan ha vært flere)" : ""}.
      </p>
      <Rows>
        {errors.items.map((e) => (
          <li key={e.request_id} className="py-2">
            <p>
              {formatDateTime(e.at)} · <span className="font-mono text-xs">{`${e.method} ${e.route}`}</span> · {e.status}
            </p>
            <p className="font-mono text-xs break-all text-red-800">{`${e.name}: ${e.message}`}</p>
            <p className="font-mono text-xs text-stone-600 select-all">{errorCodeText(e.request_id)}</p>
          </li>
        ))}
      </Rows>
    </>
  );
}
