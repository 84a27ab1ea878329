/** Round 44 px icon control used in the header (touch target ≥ 44 px). */
export const iconButtonClasses =
  "relative inline-flex size-11 items-center justify-center rounded-full text-stone-800 hover:bg-stone-100 hover:text-brand-800";
