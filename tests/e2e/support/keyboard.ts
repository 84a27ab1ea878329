// Keyboard-only helpers for the accessibility tests: move focus with Tab / Shift+Tab until a target
// has it (locators are only used to recognise the target, never to click or fill it), and describe
// whether the focused element shows a visible focus indicator.
import type { Locator, Page } from "@playwright/test";
import { expect } from "../fixtures";

/** Press Tab (or Shift+Tab) until `target` has focus; fails after `max` presses. */
export async function tabTo(
  page: Page,
  target: Locator,
  { backwards = false, max = 80 }: { backwards?: boolean; max?: number } = {},
): Promise<void> {
  await expect(target).toBeAttached();
  for (let presses = 0; presses <= max; presses++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(backwards ? "Shift+Tab" : "Tab");
  }
  throw new Error(`${max} presses of ${backwards ? "Shift+Tab" : "Tab"} never reached ${target}`);
}

/** Tab to `target` and press `key` on it (Enter by default). */
export async function tabAndPress(
  page: Page,
  target: Locator,
  key = "Enter",
  options?: { backwards?: boolean; max?: number },
): Promise<void> {
  await tabTo(page, target, options);
  await page.keyboard.press(key);
}

export interface FocusStop {
  /** A short description of the focused element: tag, role, name. */
  element: string;
  /** It shows a focus indicator. */
  visible: boolean;
  /** Why not, when it does not. */
  reason?: string;
}

/**
 * The element with focus and whether it shows a visible focus indicator: an outline at least 2 px
 * wide in a colour that is not transparent, on the element itself, its ::before/::after, or, for a
 * visually hidden control (the "peer" pattern: an sr-only input styled through its neighbour), on
 * the next sibling or the enclosing label. null when nothing but the page has focus.
 */
function inspectFocus(): (FocusStop & { path: string }) | null {
  const el = document.activeElement as HTMLElement | null;
  if (!el || el === document.body || el === document.documentElement) return null;
  const describe = (node: Element) => {
    const name = (node.getAttribute("aria-label") ?? (node as HTMLElement).innerText ?? (node as HTMLInputElement).value ?? "")
      .trim()
      .replace(/\s+/g, " ")
      .slice(0, 40);
    const role = node.getAttribute("role");
    const type = node.getAttribute("type");
    return `<${node.tagName.toLowerCase()}${role ? ` role=${role}` : ""}${type ? ` type=${type}` : ""}> "${name}"`;
  };
  const transparent = (color: string) => color === "transparent" || /rgba?\([^)]*,\s*0\)$/.test(color) || /\/\s*0\)$/.test(color);
  const ring = (node: Element, pseudo: string | null) => {
    const s = getComputedStyle(node, pseudo);
    return s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2 && !transparent(s.outlineColor);
  };
  // Where the element sits in the tree: recognises a stop when focus comes round to it again.
  const steps: number[] = [];
  for (let node: Element | null = el; node?.parentElement; node = node.parentElement)
    steps.push(Array.prototype.indexOf.call(node.parentElement.children, node));
  const path = steps.join(".");
  const rect = el.getBoundingClientRect();
  const hidden = rect.width <= 1 || rect.height <= 1 || getComputedStyle(el).clipPath !== "none" || getComputedStyle(el).clip !== "auto";
  const candidates: [Element, string | null][] = [
    [el, null],
    [el, "::after"],
    [el, "::before"],
  ];
  if (hidden) {
    if (el.nextElementSibling) candidates.push([el.nextElementSibling, null]);
    const label = el.closest("label");
    if (label) candidates.push([label, null]);
  }
  const visible = candidates.some(([node, pseudo]) => ring(node, pseudo));
  if (visible && ring(el, null)) {
    // The element's own ring must not be cut off by a scroller or an overflow-hidden box around it.
    const s = getComputedStyle(el);
    const reach = parseFloat(s.outlineOffset) + parseFloat(s.outlineWidth);
    const box = { left: rect.left - reach, right: rect.right + reach, top: rect.top - reach, bottom: rect.bottom + reach };
    for (let node = el.parentElement; node && node !== document.body; node = node.parentElement) {
      const style = getComputedStyle(node);
      const clipsX = style.overflowX !== "visible";
      const clipsY = style.overflowY !== "visible";
      if (!clipsX && !clipsY) continue;
      const edge = node.getBoundingClientRect();
      const inner = {
        left: edge.left + node.clientLeft,
        top: edge.top + node.clientTop,
        right: edge.left + node.clientLeft + node.clientWidth,
        bottom: edge.top + node.clientTop + node.clientHeight,
      };
      const cut =
        (clipsX && (box.left < inner.left - 0.5 || box.right > inner.right + 0.5)) ||
        (clipsY && (box.top < inner.top - 0.5 || box.bottom > inner.bottom + 0.5));
      if (cut)
        return {
          path,
          element: describe(el),
          visible: false,
          reason: `ring cut off by ${describe(node).slice(0, 60)} (overflow ${style.overflowX}/${style.overflowY}; ring ${JSON.stringify(box)}, visible area ${JSON.stringify(inner)})`,
        };
    }
  }
  if (visible) return { path, element: describe(el), visible };
  const s = getComputedStyle(el);
  return {
    path,
    element: describe(el),
    visible,
    reason: `outline ${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}, box-shadow ${s.boxShadow}`,
  };
}

export async function focusStop(page: Page): Promise<FocusStop | null> {
  const stop = await page.evaluate(inspectFocus);
  if (!stop) return null;
  const { path: _, ...rest } = stop;
  return rest;
}

/**
 * Tab through a freshly loaded page until focus comes back round (or `max` stops), and return every
 * stop without a visible focus indicator. The page inspects each stop itself, on the Tab's keyup
 * (after the keydown has moved focus and scrolled it into view), so a stop costs one key press and
 * the stops are read in batches: three round trips to the page per stop cost the keyboard tests
 * about half their time.
 */
export async function stopsWithoutVisibleFocus(page: Page, max = 60): Promise<string[]> {
  // Once per document (a second walk on the same page reuses the listener).
  await page.evaluate(`(() => {
    if (window.__focusStops) { window.__focusStops.length = 0; return; }
    const inspect = ${inspectFocus.toString()};
    window.__focusStops = [];
    window.addEventListener("keyup", (event) => { if (event.key === "Tab") window.__focusStops.push(inspect()); }, true);
  })()`);
  const seen = new Set<string>();
  const missing: string[] = [];
  const BATCH = 10;
  for (let pressed = 0; pressed < max; ) {
    for (let i = 0; i < BATCH && pressed < max; i++, pressed++) await page.keyboard.press("Tab");
    const stops = (await page.evaluate("window.__focusStops.splice(0)")) as ((FocusStop & { path: string }) | null)[];
    for (const stop of stops) {
      if (!stop) continue;
      if (seen.has(stop.path)) return missing;
      seen.add(stop.path);
      if (!stop.visible) missing.push(`${stop.element}: ${stop.reason}`);
    }
  }
  return missing;
}
