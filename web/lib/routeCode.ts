/**
 * Which files each page module needs (route-chunks.json, written by the build), so that a navigation
 * fetches a page's files side by side instead of one import after another. The entry carries no
 * such list (it was about 2 KB gzipped of every page, decision 160): the map is fetched once the first
 * page has loaded and the browser is idle. A navigation before it is here, or without it, still
 * works; its files then come one round trip later.
 */
import { isBuildScript } from "../../domain/routes";

type RouteFiles = Record<string, unknown>;

let files: RouteFiles | undefined;
let request: Promise<RouteFiles> | undefined;

export function loadRouteFiles(): Promise<RouteFiles> {
  request ??= fetch("/route-chunks.json")
    .then((res) => (res.ok ? (res.json() as Promise<RouteFiles>) : Promise.reject(new Error(`route-chunks.json: ${res.status}`))))
    .then(
      (map) => {
        files = map;
        return map;
      },
      () => {
        // Offline or a deploy in between: asked again at the next navigation.
        request = undefined;
        return {};
      },
    );
  return request;
}

/** Fetch the map once the page has loaded and the browser has nothing else to do. */
export function loadRouteFilesWhenIdle(): void {
  const whenIdle = () => {
    if ("requestIdleCallback" in window) requestIdleCallback(() => void loadRouteFiles(), { timeout: 5_000 });
    else setTimeout(() => void loadRouteFiles(), 1_000);
  };
  if (document.readyState === "complete") whenIdle();
  else window.addEventListener("load", whenIdle, { once: true });
}

function link(map: RouteFiles, module: string) {
  const list = map[module];
  if (!Array.isArray(list)) return;
  for (const href of list) {
    // Once each: a file already asked for (by this page, the app loader or another page) is linked.
    if (!isBuildScript(href)) continue;
    if (document.querySelector(`link[rel="modulepreload"][href="${href}"]`)) continue;
    const element = document.createElement("link");
    element.rel = "modulepreload";
    element.crossOrigin = "";
    element.href = href;
    document.head.append(element);
  }
}

/** Start fetching the files of a page module (its file name in web/routes) at once, all together. */
export function preloadRouteCode(module: string): void {
  if (files) link(files, module);
  else void loadRouteFiles().then((map) => link(map, module));
}
