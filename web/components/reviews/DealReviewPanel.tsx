import { Star } from "lucide-react";
import { useState } from "react";
import { Link } from "../Link";
import { formatDate, genitive } from "../../../domain/format";
import { reviewDeadlineText } from "../../../domain/reviews";
import type { DealReviewStateBody } from "../../api/reviews";
import { Button } from "../ui/Button";
import { LazyReviewDialog } from "../lazyDialogs";
import type { ReviewTarget } from "./ReviewDialog";
import { Stars } from "./Stars";

/**
 * The review prompt of one completed deal, for one of its parties (the chat, the trade history):
 * "Gi vurdering" while the window is open; afterwards what the user wrote and, once revealed, what
 * the other party wrote about them.
 */
export function DealReviewPanel({ state }: { state: DealReviewStateBody }) {
  const [target, setTarget] = useState<ReviewTarget | null>(null);
  const name = state.other_user.display_name;
  const { my_review: mine, their_review: theirs } = state;
  return (
    <div className="rounded-2xl border border-amber-200 bg-amber-50 p-3 text-sm text-stone-900">
      {state.can_review ? (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div>
            <p className="font-semibold">Handelen er fullført. Hvordan gikk det med {name}?</p>
            <p className="text-stone-700">
              {state.other_has_reviewed ? `${name} har gitt deg en vurdering. Gi din for å se den. ` : ""}
              {reviewDeadlineText(state.window_closes_at)}
            </p>
          </div>
          <Button size="sm" onClick={() => setTarget({ kind: state.deal_kind, id: state.deal_id, otherName: name })}>
            <Star aria-hidden="true" className="size-4" />
            Gi vurdering
          </Button>
        </div>
      ) : null}
      {mine ? (
        <p>
          <span className="font-semibold">Din vurdering av {name}:</span> <Stars rating={mine.rating} className="align-text-bottom" />
          {mine.text ? <span className="block whitespace-pre-line text-stone-800">«{mine.text}»</span> : null}
          {!theirs && state.window_open ? (
            <span className="block text-stone-700">
              Vises når {name} også har gitt sin vurdering, eller senest {formatDate(state.window_closes_at)}.
            </span>
          ) : null}
        </p>
      ) : null}
      {theirs ? (
        <p className="mt-2">
          <span className="font-semibold">{genitive(name)} vurdering av deg:</span>{" "}
          <Stars rating={theirs.rating} className="align-text-bottom" />
          {theirs.text ? <span className="block whitespace-pre-line text-stone-800">«{theirs.text}»</span> : null}
        </p>
      ) : null}
      {!state.can_review && !mine ? <p className="text-stone-700">Fristen for å gi {name} en vurdering er ute.</p> : null}
      {!state.other_user.deleted ? (
        <Link
          to={`/bruker/${state.other_user.id}`}
          className="mt-1 inline-flex min-h-11 items-center font-semibold text-brand-800 underline"
        >
          Se profilen til {name}
        </Link>
      ) : null}
      <LazyReviewDialog target={target} onClose={() => setTarget(null)} />
    </div>
  );
}
