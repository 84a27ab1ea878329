// The strip above the chat's messages (offer cards and the review prompt) has a height cap and
// scrolls (decision 088). A line opened inside it is brought to the strip's top, so what opened is
// in view rather than below the cap; only the strip scrolls, never the page.

/** The strip element (ChatPage marks it with `data-deal-strip`); found from a line inside. */
const STRIP = "[data-deal-strip]";

export function revealInStrip(element: HTMLElement | null) {
  const strip = element?.closest<HTMLElement>(STRIP);
  if (!element || !strip) return;
  requestAnimationFrame(() => {
    strip.scrollTop += element.getBoundingClientRect().top - strip.getBoundingClientRect().top - 4;
  });
}
