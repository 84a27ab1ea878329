import { Baby, Car, Dices, PersonStanding, Puzzle, ToyBrick, type LucideIcon } from "lucide-react";
import { Link } from "../../components/Link";
import { categoryLabel, type CategoryKey } from "../../../domain/taxonomy";

/** The six categories the home grid shows, in the order docs/product.md "Home" gives, with their icons. */
const HOME_CATEGORIES: [CategoryKey, LucideIcon][] = [
  ["lego", ToyBrick],
  ["biler", Car],
  ["baby", Baby],
  ["puslespill", Puzzle],
  ["spill", Dices],
  ["dukker", PersonStanding],
];

/**
 * The six home categories; unlike the prototype each opens search filtered by it (docs/product.md "Home"). On a
 * phone they are one row of chips that scrolls sideways, so the listings start in the first screen;
 * from `sm` up, a grid of tiles.
 */
export function CategoryGrid() {
  return (
    <section aria-labelledby="categories-heading">
      <h2 id="categories-heading" className="sr-only text-xl font-bold text-stone-900 sm:not-sr-only">
        Kategorier
      </h2>
      <ul className="-mx-4 flex gap-2 overflow-x-auto px-4 pb-1 [scrollbar-width:none] sm:mx-0 sm:mt-3 sm:grid sm:grid-cols-6 sm:gap-3 sm:overflow-visible sm:px-0 sm:pb-0">
        {HOME_CATEGORIES.map(([key, Icon]) => (
          <li key={key} className="shrink-0">
            {/*
                The row scrolls sideways on phones: the ring is drawn inside the chip, and a chip that
                gets focus is scrolled fully into the row (Chromium leaves a half-hidden one as it is).
              */}
            <Link
              to={`/search?categories=${encodeURIComponent(key)}`}
              onFocus={(event) => event.currentTarget.scrollIntoView({ block: "nearest", inline: "nearest" })}
              className="flex h-full min-h-11 items-center gap-2 rounded-full border border-stone-200 bg-white py-1 pr-4 pl-1.5 shadow-sm transition-colors hover:border-brand-600 hover:bg-brand-50 focus-visible:outline-offset-[-3px] sm:flex-col sm:rounded-2xl sm:px-2 sm:py-4 sm:text-center"
            >
              <span
                aria-hidden="true"
                className="flex size-8 items-center justify-center rounded-full bg-accent-100 text-accent-900 sm:size-12"
              >
                <Icon className="size-5 sm:size-6" />
              </span>
              <span className="text-sm font-semibold whitespace-nowrap text-stone-900">{categoryLabel(key)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
