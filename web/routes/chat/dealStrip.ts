// The strip above the chat's messages (offer cards and the review prompt) has a height cap and
// scrolls (decision 088). A line opened inside it is brought to the strip's top, so what opened is
// in view rather than below the cap; only the strip scrolls, never the page. A card that waits for
// the parties marks itself live (the strip's cap is higher then) and keeps its buttons, and the
// question a button asks, at the strip's lower edge while any of it is in view (decision 118).

/** The strip element (ChatPage marks it with `data-deal-strip`); found from a line inside. */
const STRIP = "[data-deal-strip]";

export function revealInStrip(element: HTMLElement | null) {
  const strip = element?.closest<HTMLElement>(STRIP);
  if (!element || !strip) return;
  requestAnimationFrame(() => {
    strip.scrollTop += element.getBoundingClientRect().top - strip.getBoundingClientRect().top - 4;
  });
}

/** Marks a card as live: an order whose money is not settled, an offer not yet answered or handed over. */
export const LIVE_CARD = { "data-live": "" } as const;

/**
 * The row of a live card's buttons (or the question one of them asks): it sticks to the strip's lower
 * edge, so it is never below the cap; padded rather than spaced, so what it covers is not seen between.
 */
export const STRIP_ACTIONS = "sticky bottom-0 z-[1] bg-white pt-2";
