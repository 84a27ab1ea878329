import { Baby, Car, Dices, PersonStanding, Puzzle, ToyBrick, type LucideIcon } from "lucide-react";
import { Link } from "react-router-dom";
import { categoryLabel, HOME_CATEGORIES, type CategoryKey } from "../../../domain/taxonomy";

const ICONS: Partial<Record<CategoryKey, LucideIcon>> = {
  lego: ToyBrick,
  biler: Car,
  baby: Baby,
  puslespill: Puzzle,
  spill: Dices,
  dukker: PersonStanding,
};

/** The six home categories; unlike the prototype each opens search filtered by it (DESIGN). */
export function CategoryGrid() {
  return (
    <section aria-labelledby="categories-heading">
      <h2 id="categories-heading" className="text-xl font-bold text-stone-900">
        Kategorier
      </h2>
      <ul className="mt-3 grid grid-cols-3 gap-3 sm:grid-cols-6">
        {HOME_CATEGORIES.map((key) => {
          const Icon = ICONS[key] ?? ToyBrick;
          return (
            <li key={key}>
              <Link
                to={`/search?categories=${encodeURIComponent(key)}`}
                className="flex h-full flex-col items-center gap-2 rounded-2xl border border-stone-200 bg-white px-2 py-4 text-center shadow-sm transition-colors hover:border-brand-600 hover:bg-brand-50"
              >
                <span aria-hidden="true" className="flex size-12 items-center justify-center rounded-full bg-accent-100 text-accent-900">
                  <Icon className="size-6" />
                </span>
                <span className="text-sm font-semibold text-stone-900">{categoryLabel(key)}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
