// Inlined into index.html by the build (vite.config.ts, `scriptsAfterFirstPaint`, decision 112): the
// app's code is asked for only once the browser has painted the page from its HTML, so the first
// screen never waits for JavaScript. `data-entry` is the entry chunk; `data-modules` the chunks it
// imports, and #page-modules (written by the Worker) the current page's, all fetched side by side.
{
  const loader = document.currentScript;
  let started = false;
  // `reason` is kept on the loader (data-started) for the tests and for anyone reading the page.
  const start = (reason) => {
    if (started) return;
    started = true;
    loader.dataset.started = reason;
    const pageModules = document.getElementById("page-modules");
    const entryChunks = [...JSON.parse(loader.dataset.modules), loader.dataset.entry];
    const modules = [...entryChunks, ...JSON.parse(pageModules ? pageModules.textContent : "[]")];
    // Each link starts its fetch at once, and that costs the main thread about half a millisecond
    // (a few on a phone): a few links per task, so twenty files make no long task.
    const preload = () => {
      for (const href of modules.splice(0, 3)) {
        const link = document.createElement("link");
        link.rel = "modulepreload";
        link.crossOrigin = "";
        link.href = href;
        document.head.append(link);
      }
      if (modules.length > 0) setTimeout(preload);
    };
    preload();
    // The entry's chunks are run one at a time, each in a task of its own (React's own chunk alone
    // takes a phone over 100 ms): the browser can paint and answer input between them.
    const chain = [...entryChunks];
    const next = () => {
      const file = chain.shift();
      if (!file) return;
      import(file)
        .then(() => setTimeout(next))
        // Offline or a deploy in between: the page stays as its HTML (links still work), said in the console.
        .catch((error) => console.error("The app's code could not be loaded", error));
    };
    next();
  };
  // A press on the edge HTML before React has taken that part over would be lost (React drops a
  // press on a part whose code is still on its way): held, and made again once the control is
  // React's (it carries React's props then). It is found again by its kind, text and place, as React
  // may have rendered that part anew. Held: buttons, read-only fields that act when pressed (the
  // header's search box), and a form sent without a button (Enter in a search field).
  const root = document.getElementById("root");
  const isReacts = (element, prefix) => Object.keys(element).some((key) => key.startsWith(prefix));
  // A part React keeps as the edge's HTML (web/components/EdgePart.tsx) keeps its presses itself once
  // React has taken the part over.
  const inOwnedPart = (element) => {
    const part = element.closest("[data-edge-part]");
    return !!part && isReacts(part, "__reactProps$");
  };
  const answered = (element) => isReacts(element, "__reactProps$") || inOwnedPart(element);
  const PRESSABLE = "button, input[readonly]";
  const likeIt = (element) => [...root.querySelectorAll(element.localName)].filter((other) => other.textContent === element.textContent);
  const whenReacts = (element, act) => {
    const index = likeIt(element).indexOf(element);
    const deadline = Date.now() + 10000;
    const retry = () => {
      const again = likeIt(element)[index];
      if (again && answered(again)) act(again);
      else if (deadline > Date.now()) setTimeout(retry, 50);
    };
    retry();
  };
  const hold = (event, element, act) => {
    if (!element || !root?.contains(element) || answered(element)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    whenReacts(element, act);
  };
  document.addEventListener(
    "click",
    (event) => hold(event, event.target instanceof Element ? event.target.closest(PRESSABLE) : null, (again) => again.click()),
    true,
  );
  document.addEventListener("submit", (event) => hold(event, event.target, (again) => again.requestSubmit()), true);
  // A page without HTML of its own in #root (not edge-rendered) and without the consent banner (the
  // visitor has answered it, decision 102) paints nothing before its code: nothing to wait for, and
  // no paint would come to end the wait. Otherwise: once the browser reports its first contentful
  // paint; where it cannot, after the first frame (a frame's animation callbacks run before its
  // paint, a task queued from one after it). A tab opened in the background paints nothing until
  // shown, hence the timer.
  if (!root?.hasChildNodes() && document.documentElement.hasAttribute("data-consent")) {
    start("at-once");
  } else if (typeof PerformanceObserver === "function" && PerformanceObserver.supportedEntryTypes?.includes("paint")) {
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName("first-contentful-paint").length === 0) return;
      observer.disconnect();
      start("after-paint");
    }).observe({ type: "paint", buffered: true });
  } else {
    requestAnimationFrame(() => setTimeout(() => start("after-frame")));
  }
  setTimeout(() => start("timer"), 1500);
}
