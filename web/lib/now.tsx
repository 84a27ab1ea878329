import { createContext, startTransition, useContext, useEffect, useState, type ReactNode } from "react";

/**
 * The "now" relative times ("for 5 minutter siden") are computed from. A page the Worker rendered
 * at the edge (web/ssr) carries the Worker's clock; the first client render uses the same instant,
 * so hydration matches the HTML to the letter, and the live clock takes over right after.
 */
const NowContext = createContext<Date | undefined>(undefined);

export function NowProvider({ renderedAt, children }: { renderedAt?: Date; children: ReactNode }) {
  const [now, setNow] = useState(renderedAt);
  // After hydration: the live clock (undefined means "new Date()" at each render). Every relative
  // time renders again for it, so in slices that yield to the browser, not as one long task.
  useEffect(() => startTransition(() => setNow(undefined)), []);
  return <NowContext.Provider value={now}>{children}</NowContext.Provider>;
}

/** The instant to compute relative times from: the edge's while hydrating, else the browser's. */
export function useNow(): Date {
  return useContext(NowContext) ?? new Date();
}
