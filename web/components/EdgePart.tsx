// A part of an edge-rendered page whose code loads only once someone wants it (decision 120).
//
// The Worker renders the part into the page like everything else. When the browser takes the page
// over, the part keeps that HTML as it is, untouched by React (React hydrates nothing in it and needs
// none of its code), until a button in it is pressed, `live` says it must show more than the edge
// could (a signed-in person's own state), or it is given other data than the edge had. Then its code
// loads and it renders as React in the same place; the edge HTML stays on screen until the code is
// there. Pointing at the part, touching it or moving focus into it fetches the code ahead. Meanwhile:
// - its links navigate inside the app (without its code);
// - a press on one of its buttons is kept and made again on the same button once the part runs (the
//   app loader, web/app-loader.js, holds such a press as well: whichever sees it first keeps it).
// Rendered in the browser from the start (a navigation inside the app), the part loads at once.
import { type ComponentType, type MouseEvent, Suspense, useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { useNavigate } from "react-router-dom";
import { lazyCode, reloadOnceForMissingCode } from "../lib/missingCode";

/** A lazily loaded component that hands itself over synchronously once its module is here. */
export interface LazyPart<P> {
  Component: ComponentType<P>;
  preload: () => Promise<unknown>;
}

export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): LazyPart<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    loading ??= load().then((component) => {
      loaded = component;
      return component;
    });
    return loading;
  };
  const Component = lazyCode(() =>
    loaded
      ? ({ then: (resolve: (m: { default: ComponentType<P> }) => void) => resolve({ default: loaded! }) } as Promise<{
          default: ComponentType<P>;
        }>)
      : preload().then((component) => ({ default: component })),
  );
  return { Component: Component as unknown as ComponentType<P>, preload };
}

const ATTRIBUTE = "data-edge-part";

/** The edge's HTML of the part with this id, while the page that has it is being taken over. */
function edgeHtmlOf(id: string): string | null {
  if (typeof document === "undefined") return null;
  for (const element of document.querySelectorAll(`[${ATTRIBUTE}]`)) if (element.getAttribute(ATTRIBUTE) === id) return element.innerHTML;
  return null;
}

const plainClick = (event: MouseEvent) =>
  event.button === 0 && !event.defaultPrevented && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

export interface EdgePartProps<P> {
  part: LazyPart<P>;
  props: P;
  /**
   * What the edge rendered the part from (the listing, say): while it is the same object the edge's
   * HTML still says what the part would; a new one (another listing, fresher data) brings the part.
   */
  keep: unknown;
  /** Bring the part now: the edge's HTML does not say enough (a signed-in person's own state). */
  live?: boolean;
  /** Shown while its code loads when there is no edge HTML (a navigation inside the app). */
  fallback?: React.ReactNode;
}

export function EdgePart<P extends object>({ part, props, keep, live = false, fallback = null }: EdgePartProps<P>) {
  const id = useId();
  // Read once, as the part is taken over, and kept as one object: React would set an element's inner
  // HTML again whenever that prop is a new object. Only an element React hydrates ever gets it, and
  // React never sets it there: the HTML stays the edge's own nodes.
  const [kept] = useState(() => {
    const html = edgeHtmlOf(id);
    return html === null ? null : { __html: html };
  });
  const [keptFor] = useState(keep);
  const [wanted, setWanted] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const navigate = useNavigate();
  const wrapper = useRef<HTMLDivElement>(null);
  /** A button pressed while the part was still the edge's HTML: its place among the part's buttons. */
  const pressed = useRef<number | null>(null);
  const wants = wanted || live || keep !== keptFor;
  // Live (the edge's HTML is a visitor's, and this is a signed-in person) while the part's code is on
  // its way: out of sight, its space kept, rather than a moment of controls that are not theirs.
  // Set on the element, not rendered: the kept element is taken over from the edge's HTML as it is.
  const stale = kept !== null && !loaded && live;
  useLayoutEffect(() => {
    const element = wrapper.current;
    if (element) element.style.visibility = stale ? "hidden" : "";
  }, [stale]);

  // The edge's HTML stays until the part's code is here; then the part renders at once in its place.
  useEffect(() => {
    if (kept === null || !wants) return;
    let cancelled = false;
    void part.preload().then(
      () => {
        if (!cancelled) setLoaded(true);
      },
      // Pressed, and its code is gone: the page loads itself again once (decision 164).
      (error: unknown) => reloadOnceForMissingCode(error).catch(() => undefined),
    );
    return () => {
      cancelled = true;
    };
  }, [kept, wants, part]);

  if (kept !== null && !loaded) {
    // Pointing at it, touching it or moving focus into it fetches its code; only a press brings it
    // (it replaces the HTML, which must not happen under a finger or the focus).
    const prefetch = () => void part.preload().catch(() => undefined);
    const want = () => setWanted(true);
    const onClick = (event: MouseEvent<HTMLDivElement>) => {
      const target = event.target instanceof Element ? event.target : null;
      const button = target?.closest("button");
      if (button) {
        event.preventDefault();
        pressed.current = [...(wrapper.current?.querySelectorAll("button") ?? [])].indexOf(button);
        want();
        return;
      }
      const link = target?.closest("a");
      if (!link || !plainClick(event) || link.origin !== window.location.origin || link.target) return;
      event.preventDefault();
      navigate(link.pathname + link.search + link.hash);
    };
    return (
      <div
        key="edge"
        ref={wrapper}
        {...{ [ATTRIBUTE]: id }}
        className="contents"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the element's own HTML as the browser parsed it from the edge; React hydrates this element and never sets it
        dangerouslySetInnerHTML={kept}
        onPointerDown={prefetch}
        onTouchStart={prefetch}
        onFocus={prefetch}
        onKeyDown={prefetch}
        onClick={onClick}
      />
    );
  }
  return (
    // Another element than the edge's (its key): React starts it afresh instead of adding to the HTML.
    <div key="live" ref={wrapper} {...{ [ATTRIBUTE]: id }} className="contents">
      <Suspense fallback={fallback}>
        <part.Component {...props} />
        <PressAgain wrapper={wrapper} pressed={pressed} />
      </Suspense>
    </div>
  );
}

/** Rendered with the part once its code is here: the press kept meanwhile, made again. */
function PressAgain({ wrapper, pressed }: { wrapper: React.RefObject<HTMLDivElement | null>; pressed: React.RefObject<number | null> }) {
  useEffect(() => {
    const index = pressed.current;
    if (index === null) return;
    pressed.current = null;
    const button = wrapper.current?.querySelectorAll("button")[index];
    // The pressed button was replaced: focus goes to its successor, which is pressed.
    button?.focus();
    button?.click();
  }, [wrapper, pressed]);
  return null;
}
