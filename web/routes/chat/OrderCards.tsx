import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ImagePlus, ShieldCheck, X } from "lucide-react";
import { useEffect, useId, useRef, useState, type ChangeEvent } from "react";
import type { OrderState } from "../../../domain/orders";
import {
  orderStateLabel,
  ORDER_TEXTS,
  PROBLEM_PHOTO_REFUSALS,
  PROBLEM_PHOTOS_MAX,
  PROBLEM_REASON_LABELS,
  PROBLEM_REASONS,
  PROBLEM_TEXT_MIN,
  type ProblemReason,
} from "../../../domain/order-texts";
import { MAX_IMAGE_BYTES } from "../../../domain/limits";
import { formatDateTime, formatMinorUnits } from "../../../domain/format";
import { orderText } from "../payment/orderText";
import { ShipmentDetails } from "../payment/ShipmentDetails";
import { chatKeys } from "../../api/chat";
import { isApiError } from "../../api/client";
import {
  conversationOrdersQuery,
  moveOrder,
  paymentKeys,
  reportProblem,
  uploadProblemPhoto,
  type OrderMove,
  type OrderView,
} from "../../api/payments";
import { PHOTO_ACCEPT, selectPhotos } from "../../components/listing-form/photoFiles";
import { ProblemPhotos } from "../../components/ProblemPhotos";
import { reviewKeys } from "../../api/reviews";
import { fieldClasses, Modal, ModalFormActions } from "../../components/Modal";
import { Button } from "../../components/ui/Button";
import { cn } from "../../lib/cn";
import { prepareImageForUpload } from "../../lib/imageScale";
import { toastError } from "../../lib/toast";
import { LIVE_CARD, STRIP_ACTIONS } from "./dealStrip";
import { StripLine } from "./StripLine";

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
        <OrderCard key={order.order_id} order={order} conversationId={conversationId} />
      ))}
    </section>
  );
}

const DONE: readonly OrderState[] = ["released", "refunded", "partially_refunded", "cancelled"];

function OrderCard({ order, conversationId }: { order: OrderView; conversationId: string }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState<OrderMove | null>(null);
  const [reporting, setReporting] = useState(false);
  const done = DONE.includes(order.state);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: paymentKeys.conversationOrders(conversationId) });
    void queryClient.invalidateQueries({ queryKey: reviewKeys.conversation(conversationId) });
    void queryClient.invalidateQueries({ queryKey: ["me", "payments"] });
    // The listing's state in the chat header moves with the money (a refund puts it up for sale again).
    void queryClient.invalidateQueries({ queryKey: chatKeys.detail(conversationId) });
  };
  const onError = (error: unknown) => {
    const reason = isApiError(error) && error.status !== 500 && error.code !== "NETWORK" ? error.message : "Prøv igjen.";
    toastError("Feil", reason, { error });
    refresh();
  };
  // The Worker's answer to a move or "Prøv igjen" is the order as it is now.
  const show = (updated: OrderView) => {
    queryClient.setQueryData(paymentKeys.conversationOrders(conversationId), (list: OrderView[] | undefined) =>
      list?.map((o) => (o.order_id === updated.order_id ? updated : o)),
    );
    refresh();
  };
  const move = useMutation({
    mutationFn: (m: OrderMove) => moveOrder(order.order_id, m),
    onSuccess: (updated) => {
      show(updated);
      setConfirming(null);
    },
    onError,
  });
  const busy = move.isPending;
  const can = (a: OrderView["actions"][number]) => order.actions.includes(a);
  const label = orderStateLabel(order.state, order.shipment !== null);
  const text = orderText(order);
  // Settled, the words may be the badge's own ("Utbetalt til selger"): said once.
  const said = text !== label ? text : null;
  // Settled with more than the badge to show (the buyer's photos, a payout on its way), the card is one
  // line that opens, as a finished offer is (decision 088), so what follows it in the strip (the review
  // prompt) stays in view. A payout that failed stays open: the seller has to act on it.
  const folded = done && !order.payout_error && (said !== null || order.photos.length > 0);
  const [expanded, setExpanded] = useState(false);
  const bodyId = useId();
  const badge = <span className="shrink-0 rounded-full bg-stone-100 px-2 py-0.5 text-xs font-semibold text-stone-800">{label}</span>;
  const heading = (
    <>
      <ShieldCheck aria-hidden="true" className="size-4 shrink-0 text-brand-700" />
      <span className="min-w-0 flex-1 truncate font-semibold text-stone-900">
        {order.listing.title} · {formatMinorUnits(order.amount)}
      </span>
    </>
  );

  return (
    <article
      aria-label={`Trygg betaling: ${order.listing.title}`}
      className={cn("rounded-xl border bg-white shadow-sm", done ? "border-stone-200" : "border-brand-300", !folded && "px-2.5 py-2")}
      {...(done ? {} : LIVE_CARD)}
    >
      {folded ? (
        <StripLine expanded={expanded} onToggle={() => setExpanded(!expanded)} controls={bodyId}>
          {heading}
          {badge}
        </StripLine>
      ) : (
        <header className="flex items-center gap-1.5 text-sm">
          {heading}
          {badge}
        </header>
      )}
      {/* Folded, the body stays in the page (hidden), so its text is there when it opens again. */}
      <div id={bodyId} hidden={folded && !expanded} className={folded ? "border-t border-stone-100 px-2.5 pb-2" : undefined}>
        {/* A sent order's parcel (decision 145): the seller's code and deadline, the buyer's number, a failed booking. */}
        {order.shipment ? <ShipmentDetails order={{ ...order, shipment: order.shipment }} onRetried={show} className="mt-1" /> : null}
        {said ? <p className="mt-1 text-sm text-stone-800">{said}</p> : null}
        {/* The buyer's photos of the problem: both parties see the evidence the moderator sees (decision 108). */}
        <ProblemPhotos photos={order.photos} className="mt-2" />
        {order.role === "buyer" && order.state === "held" && order.cancel_from && !can("cancel_no_handover") ? (
          <p className="mt-1 text-xs text-stone-700">{ORDER_TEXTS.cancelFrom(formatDateTime(order.cancel_from))}</p>
        ) : null}
        {confirming ? (
          <div role="group" aria-label="Bekreft" className={cn("flex flex-wrap items-center gap-2", STRIP_ACTIONS)}>
            <span className="text-sm text-stone-800">
              {confirming === "received"
                ? ORDER_TEXTS.confirmBody
                : confirming === "cancel"
                  ? ORDER_TEXTS.cancelBody
                  : ORDER_TEXTS.handOverBody}
            </span>
            <Button size="sm" onClick={() => move.mutate(confirming)} disabled={busy}>
              Ja
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setConfirming(null)} disabled={busy}>
              Nei
            </Button>
          </div>
        ) : order.actions.length > 0 ? (
          <div className={cn("flex flex-wrap gap-2", STRIP_ACTIONS)}>
            {can("mark_handed_over") ? (
              <Button size="sm" onClick={() => setConfirming("handed-over")} disabled={busy}>
                {ORDER_TEXTS.markHandedOver}
              </Button>
            ) : null}
            {can("confirm_received") ? (
              <Button size="sm" onClick={() => setConfirming("received")} disabled={busy}>
                {ORDER_TEXTS.confirmReceived}
              </Button>
            ) : null}
            {can("report_problem") ? (
              <Button size="sm" variant="secondary" onClick={() => setReporting(true)} disabled={busy}>
                {ORDER_TEXTS.reportProblem}
              </Button>
            ) : null}
            {can("cancel_no_handover") ? (
              <Button size="sm" variant="ghost" onClick={() => setConfirming("cancel")} disabled={busy}>
                {ORDER_TEXTS.cancel}
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>
      {/* The form in a dialog: the deal strip above the messages is kept short (decision 088). */}
      <Modal open={reporting} onOpenChange={setReporting} title={ORDER_TEXTS.reportProblem} description={ORDER_TEXTS.problemHint}>
        <ProblemForm
          id={order.order_id}
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

interface PickedPhoto {
  id: string;
  name: string;
  file: File;
  /** Object URL for the preview (revoked when removed or when the dialog closes). */
  url: string;
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
  const [photos, setPhotos] = useState<PickedPhoto[]>([]);
  const [photoError, setPhotoError] = useState<string | null>(null);
  // The photos are uploaded when the report is sent (a report never sent leaves nothing behind), one
  // by one (phone networks), each scaled and re-encoded first as listing photos are; then the report
  // names them. An upload whose report is refused is removed by the server a day later.
  const send = useMutation({
    mutationFn: async () => {
      const ids: string[] = [];
      for (const photo of photos) {
        const prepared = await prepareImageForUpload(photo.file);
        if (prepared.size > MAX_IMAGE_BYTES) throw new PhotoTooLarge(photo.name);
        ids.push((await uploadProblemPhoto(id, prepared)).id);
      }
      return reportProblem(id, { reason, text, photos: ids });
    },
    onSuccess: onDone,
    onError: (error) => (error instanceof PhotoTooLarge ? setPhotoError(error.message) : onError(error)),
  });
  const tooShort = text.trim().length < PROBLEM_TEXT_MIN;
  const [showShort, setShowShort] = useState(false);
  // Previews live as long as the dialog: their object URLs are released with it.
  const urls = useRef<string[]>([]);
  useEffect(() => () => urls.current.forEach((url) => URL.revokeObjectURL(url)), []);

  const addPhotos = (files: File[]) => {
    const { accepted, fileErrors, roomLeft } = selectPhotos(files, photos.length, PROBLEM_PHOTOS_MAX);
    const added = accepted.map((file) => {
      const url = URL.createObjectURL(file);
      urls.current.push(url);
      return { id: crypto.randomUUID(), name: file.name, file, url };
    });
    setPhotos((current) => [...current, ...added]);
    setPhotoError([...fileErrors, ...(roomLeft !== null ? [PROBLEM_PHOTO_REFUSALS.tooMany] : [])].join(" ") || null);
  };
  const removePhoto = (photoId: string) => {
    setPhotos((current) => current.filter((p) => p.id !== photoId));
    setPhotoError(null);
  };

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
        {ORDER_TEXTS.reasonLabel}
      </label>
      <select id={`${formId}-reason`} value={reason} onChange={(e) => setReason(e.target.value as ProblemReason)} className={fieldClasses}>
        {PROBLEM_REASONS.map((r) => (
          <option key={r} value={r}>
            {PROBLEM_REASON_LABELS[r]}
          </option>
        ))}
      </select>
      <label htmlFor={`${formId}-text`} className="block text-sm font-semibold text-stone-900">
        {ORDER_TEXTS.textLabel}
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
      <ProblemPhotoPicker photos={photos} onAdd={addPhotos} onRemove={removePhoto} error={photoError} disabled={send.isPending} />
      <ModalFormActions onCancel={onCancel} sending={send.isPending} submitLabel={ORDER_TEXTS.send} />
    </form>
  );
}

/** A photo that is still over 5 MB after scaling: said beside the photos, nothing is sent. */
class PhotoTooLarge extends Error {
  constructor(name: string) {
    super(`${name}: Filen er for stor (maks 5MB)`);
  }
}

function ProblemPhotoPicker({
  photos,
  onAdd,
  onRemove,
  error,
  disabled,
}: {
  photos: PickedPhoto[];
  onAdd: (files: File[]) => void;
  onRemove: (id: string) => void;
  error: string | null;
  disabled: boolean;
}) {
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const full = photos.length >= PROBLEM_PHOTOS_MAX;
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    // Cleared, so the same file can be chosen again after it was removed.
    event.target.value = "";
    if (files.length) onAdd(files);
  };
  return (
    <div>
      <p className="text-sm font-semibold text-stone-900">{ORDER_TEXTS.photosLabel}</p>
      <p id={hintId} className="text-sm text-stone-700">
        {ORDER_TEXTS.photosHint}
      </p>
      {photos.length > 0 ? (
        <ul aria-label={`Valgte bilder (${photos.length} av ${PROBLEM_PHOTOS_MAX})`} className="mt-2 flex flex-wrap gap-2">
          {photos.map((photo, index) => (
            <li key={photo.id} className="relative size-20 overflow-hidden rounded-lg border border-stone-200 bg-stone-100">
              <img src={photo.url} alt={`Bilde ${index + 1}: ${photo.name}`} className="size-full object-cover" />
              <button
                type="button"
                onClick={() => onRemove(photo.id)}
                disabled={disabled}
                aria-label={`Fjern bilde ${index + 1}`}
                className="absolute top-0.5 right-0.5 inline-flex size-8 items-center justify-center rounded-full bg-white/95 text-stone-900 shadow hover:text-red-700 disabled:opacity-60"
              >
                <X aria-hidden="true" className="size-4" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <input
        id={inputId}
        type="file"
        accept={PHOTO_ACCEPT}
        multiple
        disabled={disabled || full}
        onChange={onChange}
        aria-describedby={[hintId, error ? errorId : null].filter(Boolean).join(" ")}
        className="peer sr-only"
      />
      <label
        htmlFor={inputId}
        className={cn(
          "mt-2 inline-flex min-h-11 items-center gap-2 rounded-xl border border-stone-400 px-3 text-sm font-semibold",
          "peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-700",
          disabled || full ? "cursor-not-allowed text-stone-500" : "cursor-pointer text-brand-800 hover:bg-brand-50",
        )}
      >
        <ImagePlus aria-hidden="true" className="size-5" />
        {full ? ORDER_TEXTS.photosFull : ORDER_TEXTS.addPhotos}
      </label>
      {error ? (
        <p id={errorId} role="alert" className="mt-2 text-sm font-semibold text-red-800">
          {error}
        </p>
      ) : null}
    </div>
  );
}
