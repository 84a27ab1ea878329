import type { AnchorHTMLAttributes, MouseEvent, Ref } from "react";
import { type To, useHref, useLinkClickHandler } from "react-router-dom";

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & {
  to: To;
  replace?: boolean;
  state?: unknown;
  ref?: Ref<HTMLAnchorElement>;
};

/**
 * A link inside the app: a plain `<a href>` that works before the app's code runs, and once it runs
 * a client-side navigation for an ordinary click (a new tab, a modified click or `target` keep the
 * browser's own). react-router's `Link` does the same and adds route prefetching and discovery for
 * its framework mode, which the app does not use: about 2 KB gzipped on every page.
 */
export function Link({ to, replace, state, target, onClick, ref, ...rest }: LinkProps) {
  const href = useHref(to);
  const navigate = useLinkClickHandler(to, { replace, state, target });
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (!event.defaultPrevented) navigate(event);
  };
  return <a {...rest} ref={ref} href={href} target={target} onClick={handleClick} />;
}
