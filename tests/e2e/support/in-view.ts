// Whether an element can be seen whole as the page stands: inside the viewport and not cut by any
// ancestor that clips (a scroll box such as the chat's deal strip), with nothing scrolled to get there.
import type { Locator } from "@playwright/test";
import { expect } from "../fixtures";

interface Clipping {
  /** The element's own box. */
  box: { top: number; bottom: number; left: number; right: number };
  /** The part of the screen left once the viewport and every clipping ancestor have cut it. */
  visible: { top: number; bottom: number; left: number; right: number };
  /** Ancestors that are scrolled away from their start (a test must not need to scroll them). */
  scrolled: string[];
}

async function clipping(locator: Locator): Promise<Clipping> {
  return locator.evaluate((el) => {
    const b = el.getBoundingClientRect();
    const visible = { top: 0, left: 0, bottom: window.innerHeight, right: window.innerWidth };
    const scrolled: string[] = [];
    for (let a = el.parentElement; a; a = a.parentElement) {
      const style = getComputedStyle(a);
      const clips = [style.overflowX, style.overflowY].some((o) => o !== "visible");
      if (!clips) continue;
      const r = a.getBoundingClientRect();
      visible.top = Math.max(visible.top, r.top);
      visible.left = Math.max(visible.left, r.left);
      visible.bottom = Math.min(visible.bottom, r.bottom);
      visible.right = Math.min(visible.right, r.right);
      if (a !== document.documentElement && a !== document.body && a.scrollTop > 0)
        scrolled.push(`${a.tagName.toLowerCase()}${a.getAttribute("aria-label") ? `[${a.getAttribute("aria-label")}]` : ""}`);
    }
    return { box: { top: b.top, bottom: b.bottom, left: b.left, right: b.right }, visible, scrolled };
  });
}

/**
 * The element is on screen whole, without scrolling any box it sits in (half a pixel of rounding is
 * allowed): what a parent sees without knowing that something scrolls.
 */
export async function expectSeenWhole(locator: Locator, what: string): Promise<void> {
  await expect(locator).toBeVisible();
  const { box, visible, scrolled } = await clipping(locator);
  expect(scrolled, `${what}: no box around it is scrolled`).toEqual([]);
  const inside =
    box.top >= visible.top - 0.5 &&
    box.bottom <= visible.bottom + 0.5 &&
    box.left >= visible.left - 0.5 &&
    box.right <= visible.right + 0.5;
  expect(inside, `${what} at ${JSON.stringify(box)} is inside what can be seen, ${JSON.stringify(visible)}`).toBe(true);
}
