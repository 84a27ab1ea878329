import { useWatch } from "react-hook-form";
import { formatPrice } from "../../../domain/format";
import { categoryLabel, conditionLabel } from "../../../domain/taxonomy";
import type { ListingFormValues } from "../../components/listing-form/ListingFields";
import { Badge } from "../../components/ui/Badge";
import { cn } from "../../lib/cn";
import { PLACEHOLDER_IMAGE } from "../../lib/images";

/** The price the form will store: null when free, an empty field is 0 (docs/product.md "Validation"). */
export function previewPrice(price: ListingFormValues["price"], isFree: boolean | undefined): string {
  if (isFree) return formatPrice(null, true);
  const n = price == null || price === "" ? 0 : Number(price);
  return Number.isFinite(n) ? formatPrice(n, false) : String(price);
}

/** Step 4: how the card will look on the home page and in search (not a link). */
export function ListingPreview({ photo }: { photo?: string }) {
  const [title, price, isFree, isTrade, condition, category, age] = useWatch<ListingFormValues>({
    name: ["title", "price", "is_free", "is_trade_offer", "condition_rating", "category", "age_range"],
  }) as [string, ListingFormValues["price"], boolean, boolean, unknown, string, string];

  return (
    <section aria-labelledby="preview-heading">
      <h3 id="preview-heading" className="mb-2 text-base font-semibold text-stone-800">
        Forhåndsvisning
      </h3>
      <div className="w-full overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm">
        <div className="relative aspect-[4/3] bg-stone-100">
          <img src={photo ?? PLACEHOLDER_IMAGE} alt="" className="size-full object-cover" />
          <div className="absolute top-2 left-2 flex flex-wrap gap-1">
            {isFree ? <Badge tone="free">Gi bort</Badge> : null}
            {isTrade ? <Badge tone="trade">Åpen for bytte</Badge> : null}
          </div>
        </div>
        <div className="space-y-1 p-3">
          <p className="line-clamp-2 font-semibold text-stone-900">{title?.trim() || "Tittel"}</p>
          <p className={cn("text-lg font-bold", isFree ? "text-emerald-800" : "text-brand-800")}>{previewPrice(price, isFree)}</p>
          <p className="text-sm text-stone-700">
            {[conditionLabel(Number(condition)), age, category ? categoryLabel(category) : ""].filter(Boolean).join(" · ")}
          </p>
        </div>
      </div>
    </section>
  );
}
