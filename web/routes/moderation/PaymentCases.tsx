import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ShieldCheck } from "lucide-react";
import { useId, useState } from "react";
import { ORDER_STATE_LABELS, ORDER_TEXTS, PROBLEM_REASON_LABELS } from "../../../domain/order-texts";
import { paymentCaseTarget, staffRefusal, staffRefusalMessage } from "../../../domain/moderation";
import { formatDateTime, formatMinorUnits } from "../../../domain/format";
import { isApiError } from "../../api/client";
import { decideCase, paymentCasesQuery, paymentKeys, type PaymentCase } from "../../api/payments";
import type { SessionUser } from "../../api/auth";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { ProblemPhotos } from "../../components/ProblemPhotos";
import { Button } from "../../components/ui/Button";
import { toastError, toastSuccess } from "../../lib/toast";

/**
 * "Betalingssaker" beside the reports (decision 105): a buyer's "Meld fra om et problem" with the
 * reason, the text and both parties' chat; a moderator refunds in full or in part, or releases.
 * Open cases first; decided ones below with their outcome.
 */
export function PaymentCases({ viewer }: { viewer: Pick<SessionUser, "id" | "role"> | null }) {
  const cases = useQuery(paymentCasesQuery());
  if (!cases.data?.length) return null;
  return (
    <section aria-labelledby="payment-cases" className="mt-4">
      <h2 id="payment-cases" className="text-lg font-bold text-stone-900">
        {ORDER_TEXTS.caseTitle}
      </h2>
      <ul className="mt-2 space-y-3">
        {cases.data.map((c) => (
          <li key={c.order_id}>
            <PaymentCaseCard item={c} viewer={viewer} />
          </li>
        ))}
      </ul>
    </section>
  );
}

const SENDER = { buyer: "Kjøper", seller: "Selger", system: "Lekebytte" } as const;

function PaymentCaseCard({ item, viewer }: { item: PaymentCase; viewer: Pick<SessionUser, "id" | "role"> | null }) {
  const queryClient = useQueryClient();
  const amountId = useId();
  const [partial, setPartial] = useState(false);
  const [kroner, setKroner] = useState("");
  const [confirming, setConfirming] = useState<"refund" | "release_by_moderator" | null>(null);
  const decide = useMutation({
    mutationFn: (json: Parameters<typeof decideCase>[1]) => decideCase(item.order_id, json),
    onSuccess: (view) => {
      toastSuccess(view && view.state === "released" ? ORDER_TEXTS.released : ORDER_TEXTS.refunded);
      void queryClient.invalidateQueries({ queryKey: paymentKeys.cases });
    },
    onError: (error) => {
      toastError("Feil", isApiError(error) && error.status !== 500 ? error.message : "Prøv igjen.", { error });
      void queryClient.invalidateQueries({ queryKey: paymentKeys.cases });
    },
  });
  const busy = decide.isPending;
  const refundOre = Math.round(Number(kroner.replace(",", ".")) * 100);
  const open = item.state === "problem";
  // The server's staff rule (decision 085): no buttons where it would refuse, and the reason instead.
  const refusal = staffRefusal(
    { role: viewer?.role ?? "user", suspended: false },
    "decide_payment_case",
    paymentCaseTarget(viewer?.id ?? "", item.buyer, item.seller),
  );

  return (
    <article aria-label={`Betalingssak: ${item.listing.title}`} className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <p className="flex min-w-0 items-center gap-1.5 font-semibold text-stone-900">
          <ShieldCheck aria-hidden="true" className="size-5 shrink-0 text-brand-700" />
          <span className="truncate">{item.listing.title}</span>
        </p>
        <span className="rounded-full bg-stone-100 px-2 py-0.5 text-xs font-semibold text-stone-800">{ORDER_STATE_LABELS[item.state]}</span>
      </header>
      <p className="mt-1 text-sm text-stone-700">
        {formatMinorUnits(item.amount)} · {item.provider === "card" ? "Kort" : "Vipps"} · Kjøper: {item.buyer.display_name} · Selger:{" "}
        {item.seller.display_name}
      </p>
      <p className="mt-2 text-sm font-semibold text-stone-900">
        {PROBLEM_REASON_LABELS[item.problem_reason]} <span className="font-normal text-stone-700">({formatDateTime(item.problem_at)})</span>
      </p>
      <p className="mt-1 rounded-lg bg-stone-50 px-3 py-2 text-sm whitespace-pre-line text-stone-800">{item.problem_text}</p>
      <ProblemPhotos photos={item.photos} className="mt-2" />
      {item.messages.length > 0 ? (
        <details className="mt-2">
          <summary className="min-h-9 cursor-pointer text-sm font-semibold text-brand-800">Samtalen ({item.messages.length})</summary>
          {/* Focusable: a long conversation scrolls here, and its lines have no buttons to reach it by. */}
          <ol tabIndex={0} aria-label="Meldinger i samtalen" className="mt-1 max-h-64 space-y-1 overflow-y-auto text-sm">
            {item.messages.map((m) => (
              <li key={m.id} className="rounded-lg bg-stone-50 px-2 py-1">
                <span className="font-semibold text-stone-900">{SENDER[m.sender]}:</span>{" "}
                <span className="text-stone-800">{m.content}</span>
              </li>
            ))}
          </ol>
        </details>
      ) : null}
      {open && refusal ? (
        <p className="mt-3 rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-950">
          {staffRefusalMessage(refusal, "decide_payment_case")}
        </p>
      ) : null}
      {open && !refusal && item.actions.length > 0 ? (
        <div className="mt-3 flex flex-wrap items-end gap-2">
          <Button size="sm" onClick={() => setConfirming("refund")} disabled={busy}>
            {ORDER_TEXTS.refundFull}
          </Button>
          {partial ? (
            <form
              className="flex flex-wrap items-end gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                if (refundOre > 0) decide.mutate({ action: "partial_refund", refund_amount: refundOre });
              }}
            >
              <label htmlFor={amountId} className="text-sm font-semibold text-stone-900">
                {ORDER_TEXTS.refundAmountLabel}
                <input
                  id={amountId}
                  inputMode="decimal"
                  value={kroner}
                  onChange={(e) => setKroner(e.target.value)}
                  className="mt-1 block min-h-9 w-28 rounded-lg border border-stone-300 px-2"
                />
              </label>
              <Button size="sm" type="submit" variant="secondary" disabled={busy || !(refundOre > 0)}>
                {ORDER_TEXTS.send}
              </Button>
            </form>
          ) : (
            <Button size="sm" variant="secondary" onClick={() => setPartial(true)} disabled={busy}>
              {ORDER_TEXTS.refundPartial}
            </Button>
          )}
          <Button size="sm" variant="secondary" onClick={() => setConfirming("release_by_moderator")} disabled={busy}>
            {ORDER_TEXTS.releaseToSeller}
          </Button>
        </div>
      ) : null}
      {/* Neither can be undone: asked once more, with the amount (a part refund has its own form step). */}
      <ConfirmDialog
        open={confirming !== null}
        title={confirming === "refund" ? ORDER_TEXTS.refundFullTitle : ORDER_TEXTS.releaseTitle}
        description={
          confirming === "refund"
            ? ORDER_TEXTS.refundFullBody(formatMinorUnits(item.amount))
            : ORDER_TEXTS.releaseBody(formatMinorUnits(item.amount))
        }
        confirmLabel={confirming === "refund" ? ORDER_TEXTS.refundFull : ORDER_TEXTS.releaseToSeller}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming) decide.mutate({ action: confirming });
          setConfirming(null);
        }}
      />
    </article>
  );
}
