import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ShieldCheck } from "lucide-react";
import { useId, useState } from "react";
import {
  ESCROW_STATE_LABELS,
  ESCROW_TEXTS,
  PROBLEM_REASON_LABELS,
  PROBLEM_REASONS,
  PROBLEM_TEXT_MIN,
  type EscrowState,
  type ProblemReason,
} from "../../../domain/escrow";
import { formatDateTime, formatMinorUnits } from "../../../domain/format";
import { orderText } from "../payment/orderText";
import { isApiError } from "../../api/client";
import { conversationOrdersQuery, moveOrder, paymentKeys, reportProblem, type OrderMove, type OrderView } from "../../api/payments";
import { reviewKeys } from "../../api/reviews";
import { fieldClasses, Modal, ModalFormActions } from "../../components/Modal";
import { Button } from "../../components/ui/Button";
import { cn } from "../../lib/cn";
import { toastError } from "../../lib/toast";

/**
 * Trygg betaling in the deal's chat (decision 105): one card per paid order of the conversation,
 * with the state of the buyer's money and the buttons the lifecycle gives this party now. It
 * refetches when the conversation's room says the order changed, so both see the same at once.
 */
export function OrderCards({ conversationId }: { conversationId: string }) {
  const orders = useQuery(conversationOrdersQuery(conversationId));
  if (!orders.data?.length) return null;
  return (
    <section aria-label="Trygg betaling" className="space-y-1">
      {orders.data.map((order) => (
        <OrderCard key={order.transaction_id} order={order} conversationId={conversationId} />
      ))}
    </section>
  );
}

const DONE: readonly EscrowState[] = ["released", "refunded", "partially_refunded", "cancelled"];

function OrderCard({ order, conversationId }: { order: OrderView; conversationId: string }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState<OrderMove | null>(null);
  const [reporting, setReporting] = useState(false);
  const done = DONE.includes(order.state);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: paymentKeys.conversationOrders(conversationId) });
    void queryClient.invalidateQueries({ queryKey: reviewKeys.conversation(conversationId) });
    void queryClient.invalidateQueries({ queryKey: ["me", "payments"] });
  };
  const onError = (error: unknown) => {
    const reason = isApiError(error) && error.status !== 500 && error.code !== "NETWORK" ? error.message : "Prøv igjen.";
    toastError("Feil", reason);
    refresh();
  };
  const move = useMutation({
    mutationFn: (m: OrderMove) => moveOrder(order.transaction_id, m),
    onSuccess: (updated) => {
      queryClient.setQueryData(paymentKeys.conversationOrders(conversationId), (list: OrderView[] | undefined) =>
        list?.map((o) => (o.transaction_id === updated.transaction_id ? updated : o)),
      );
      setConfirming(null);
      refresh();
    },
    onError,
  });
  const busy = move.isPending;
  const can = (a: OrderView["actions"][number]) => order.actions.includes(a);

  return (
    <article
      aria-label={`Trygg betaling: ${order.listing.title}`}
      className={cn("rounded-xl border bg-white px-2.5 py-2 shadow-sm", done ? "border-stone-200" : "border-brand-300")}
    >
      <header className="flex items-center justify-between gap-2">
        <p className="flex min-w-0 items-center gap-1.5 text-sm font-semibold text-stone-900">
          <ShieldCheck aria-hidden="true" className="size-4 shrink-0 text-brand-700" />
          <span className="truncate">
            {order.listing.title} · {formatMinorUnits(order.amount)}
          </span>
        </p>
        <span className="shrink-0 rounded-full bg-stone-100 px-2 py-0.5 text-xs font-semibold text-stone-800">
          {ESCROW_STATE_LABELS[order.state]}
        </span>
      </header>
      <p className="mt-1 text-sm text-stone-800">{orderText(order)}</p>
      {order.role === "buyer" && order.state === "held" && order.cancel_from && !can("cancel_no_handover") ? (
        <p className="mt-1 text-xs text-stone-700">{ESCROW_TEXTS.cancelFrom(formatDateTime(order.cancel_from))}</p>
      ) : null}
      {confirming ? (
        <div role="group" aria-label="Bekreft" className="mt-2 flex flex-wrap items-center gap-2">
          <span className="text-sm text-stone-800">
            {confirming === "received"
              ? ESCROW_TEXTS.confirmBody
              : confirming === "cancel"
                ? ESCROW_TEXTS.cancelBody
                : ESCROW_TEXTS.handOverBody}
          </span>
          <Button size="sm" onClick={() => move.mutate(confirming)} disabled={busy}>
            Ja
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setConfirming(null)} disabled={busy}>
            Nei
          </Button>
        </div>
      ) : order.actions.length > 0 ? (
        <div className="mt-2 flex flex-wrap gap-2">
          {can("mark_handed_over") ? (
            <Button size="sm" onClick={() => setConfirming("handed-over")} disabled={busy}>
              {ESCROW_TEXTS.markHandedOver}
            </Button>
          ) : null}
          {can("confirm_received") ? (
            <Button size="sm" onClick={() => setConfirming("received")} disabled={busy}>
              {ESCROW_TEXTS.confirmReceived}
            </Button>
          ) : null}
          {can("report_problem") ? (
            <Button size="sm" variant="secondary" onClick={() => setReporting(true)} disabled={busy}>
              {ESCROW_TEXTS.reportProblem}
            </Button>
          ) : null}
          {can("cancel_no_handover") ? (
            <Button size="sm" variant="ghost" onClick={() => setConfirming("cancel")} disabled={busy}>
              {ESCROW_TEXTS.cancel}
            </Button>
          ) : null}
        </div>
      ) : null}
      {/* The form in a dialog: the deal strip above the messages is kept short (decision 088). */}
      <Modal open={reporting} onOpenChange={setReporting} title={ESCROW_TEXTS.reportProblem} description={ESCROW_TEXTS.problemHint}>
        <ProblemForm
          id={order.transaction_id}
          onDone={() => {
            setReporting(false);
            refresh();
          }}
          onCancel={() => setReporting(false)}
          onError={onError}
        />
      </Modal>
    </article>
  );
}

function ProblemForm({
  id,
  onDone,
  onCancel,
  onError,
}: {
  id: string;
  onDone: () => void;
  onCancel: () => void;
  onError: (error: unknown) => void;
}) {
  const formId = useId();
  const [reason, setReason] = useState<ProblemReason>("not_received");
  const [text, setText] = useState("");
  const send = useMutation({ mutationFn: () => reportProblem(id, { reason, text }), onSuccess: onDone, onError });
  const tooShort = text.trim().length < PROBLEM_TEXT_MIN;
  const [showShort, setShowShort] = useState(false);
  return (
    <form
      className="mt-3 space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        if (tooShort) setShowShort(true);
        else send.mutate();
      }}
    >
      <label htmlFor={`${formId}-reason`} className="block text-sm font-semibold text-stone-900">
        {ESCROW_TEXTS.reasonLabel}
      </label>
      <select id={`${formId}-reason`} value={reason} onChange={(e) => setReason(e.target.value as ProblemReason)} className={fieldClasses}>
        {PROBLEM_REASONS.map((r) => (
          <option key={r} value={r}>
            {PROBLEM_REASON_LABELS[r]}
          </option>
        ))}
      </select>
      <label htmlFor={`${formId}-text`} className="block text-sm font-semibold text-stone-900">
        {ESCROW_TEXTS.textLabel}
      </label>
      <textarea
        id={`${formId}-text`}
        value={text}
        onChange={(e) => setText(e.target.value)}
        rows={4}
        maxLength={2000}
        aria-invalid={showShort && tooShort}
        aria-describedby={showShort && tooShort ? `${formId}-error` : undefined}
        className={fieldClasses}
      />
      {showShort && tooShort ? (
        <p id={`${formId}-error`} className="text-sm font-semibold text-red-800">
          {`Beskriv problemet med minst ${PROBLEM_TEXT_MIN} tegn`}
        </p>
      ) : null}
      <ModalFormActions onCancel={onCancel} sending={send.isPending} submitLabel={ESCROW_TEXTS.send} />
    </form>
  );
}
