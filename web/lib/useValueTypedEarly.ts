import { useLayoutEffect, type RefObject } from "react";

/**
 * A field of an edge-rendered page can be typed into (or a list changed) before React takes the page
 * over: hydration keeps what the field shows but not in React's state, and the next render would
 * put the state's old value back. Taken over once, as the field is mounted, before anything renders
 * again; a field React rendered itself already agrees.
 */
export function useValueTypedEarly(
  field: RefObject<HTMLInputElement | HTMLSelectElement | null>,
  value: string,
  onTyped: (typed: string) => void,
): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as the field is taken over
  useLayoutEffect(() => {
    const typed = field.current?.value;
    if (typed !== undefined && typed !== value) onTyped(typed);
  }, []);
}
