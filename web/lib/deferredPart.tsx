import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore, type ComponentType, type RefObject } from "react";

/** The attribute that names a deferred part's wrapper (one part of a name per page). */
export const DEFERRED_PART_ATTRIBUTE = "data-deferred-part";

const FOCUSABLE = "a[href], button, input, select, textarea, [tabindex]";
const noSubscription = () => () => {};

/** True while React hydrates the edge HTML (the server snapshot is used then), false in any other client render. */
function useHydrating(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => false,
    () => true,
  );
}

/**
 * Calls `onInView` once the element is in the viewport (at once where IntersectionObserver is
 * missing); again after `attempt` changes.
 */
function useWhenInView(ref: RefObject<HTMLElement | null>, active: boolean, attempt: number, onInView: () => void) {
  useEffect(() => {
    const element = ref.current;
    if (!active || !element) return;
    if (typeof IntersectionObserver === "undefined") return onInView();
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      onInView();
    });
    observer.observe(element);
    return () => observer.disconnect();
    // `attempt` observes again after a failed load.
  }, [ref, active, attempt, onInView]);
}

export interface DeferredPartOptions {
  /**
   * In a page the browser renders itself (no edge HTML): "now" loads the code at once (the part may
   * be in the first screen), "in-view" only once its empty wrapper is in the viewport (a part that
   * is never in the first screen).
   */
  clientRender: "now" | "in-view";
}

/**
 * A part of a page below its first screen whose code loads only when it is in the viewport, so the
 * page's first load leaves it out (decision 104).
 *
 * On a page the Worker rendered (decision 103) hydration takes over the part's wrapper with a copy
 * of the HTML inside it, and none of its code: the part shows as the edge rendered it, without a
 * hydration mismatch. (A lazy component inside a dehydrated Suspense boundary would keep the HTML
 * too, but React drops a dehydrated boundary's HTML for its fallback on the first update above it,
 * and the "now" provider updates right after hydration.) Once the wrapper is in the viewport the
 * code loads and the part renders live in its place, looking the same; focus inside it stays on
 * the same control.
 */
export function deferredPart<P extends object>(
  name: string,
  load: () => Promise<ComponentType<P>>,
  { clientRender }: DeferredPartOptions,
): ComponentType<P & { className?: string }> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const start = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  // Once loaded, handed over synchronously: the live part replaces the edge HTML in one commit,
  // without a fallback in between (the same as router.tsx's pages).
  const Live = lazy(() =>
    loaded
      ? ({ then: (resolve: (m: { default: ComponentType<P> }) => void) => resolve({ default: loaded! }) } as Promise<{
          default: ComponentType<P>;
        }>)
      : start().then((component) => ({ default: component })),
  );

  function DeferredPart({ className, ...props }: P & { className?: string }) {
    const hydrating = useHydrating();
    const ref = useRef<HTMLDivElement>(null);
    const attribute = { [DEFERRED_PART_ATTRIBUTE]: name };
    // Read once, while hydrating: the HTML the edge put inside this part's wrapper.
    const [edgeHtml, setEdgeHtml] = useState(() =>
      hydrating && !loaded && typeof document !== "undefined"
        ? (document.querySelector(`[${DEFERRED_PART_ATTRIBUTE}="${name}"]`)?.innerHTML ?? null)
        : null,
    );
    // At the edge the part always renders; in the browser it waits as `clientRender` says.
    const [wanted, setWanted] = useState(
      () => typeof document === "undefined" || !!loaded || (edgeHtml === null && clientRender === "now"),
    );
    const [attempt, setAttempt] = useState(0);
    const focusIndex = useRef(-1);
    const [onInView] = useState(() => () => {
      start().then(
        () => {
          // The control that has focus in the edge HTML gets it back in the live part.
          const edge = ref.current;
          const focused = document.activeElement;
          focusIndex.current = edge && focused && edge.contains(focused) ? [...edge.querySelectorAll(FOCUSABLE)].indexOf(focused) : -1;
          setEdgeHtml(null);
          setWanted(true);
        },
        // Offline for a moment: tried again the next time the part is in view.
        () => setAttempt((n) => n + 1),
      );
    });
    useWhenInView(ref, !wanted, attempt, onInView);

    useLayoutEffect(() => {
      if (!wanted || focusIndex.current < 0 || !ref.current) return;
      (ref.current.querySelectorAll(FOCUSABLE)[focusIndex.current] as HTMLElement | undefined)?.focus();
      focusIndex.current = -1;
    }, [wanted]);

    if (edgeHtml !== null) {
      // The same markup the edge rendered (React compares it while hydrating and leaves it alone).
      return <div key="edge" ref={ref} {...attribute} className={className} dangerouslySetInnerHTML={{ __html: edgeHtml }} />;
    }
    return (
      <div key="live" ref={ref} {...attribute} className={className}>
        {wanted ? (
          <Suspense fallback={null}>
            <Live {...(props as P)} />
          </Suspense>
        ) : null}
      </div>
    );
  }
  return DeferredPart;
}
