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
    const modules = [...JSON.parse(loader.dataset.modules), ...JSON.parse(pageModules ? pageModules.textContent : "[]")];
    for (const href of modules) {
      const link = document.createElement("link");
      link.rel = "modulepreload";
      link.crossOrigin = "";
      link.href = href;
      document.head.append(link);
    }
    // Offline or a deploy in between: the page stays as its HTML (links still work), said in the console.
    import(loader.dataset.entry).catch((error) => console.error("The app's code could not be loaded", error));
  };
  // A press on the edge HTML before React has taken that part over would be lost (React does not
  // replay it): held, and pressed again once the button is React's (it carries React's props then).
  // The button is found again by its text and place: React may have rendered that part anew.
  const root = document.getElementById("root");
  const isReacts = (element) => Object.keys(element).some((key) => key.startsWith("__reactProps$"));
  const buttonsLike = (text) => [...root.querySelectorAll("button")].filter((b) => b.textContent === text);
  const pressWhenReady = (text, index, deadline) => {
    const button = buttonsLike(text)[index];
    if (button && isReacts(button)) button.click();
    else if (deadline > Date.now()) setTimeout(() => pressWhenReady(text, index, deadline), 50);
  };
  document.addEventListener(
    "click",
    (event) => {
      const button = event.target instanceof Element ? event.target.closest("button") : null;
      if (!button || !root?.contains(button) || isReacts(button)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      const text = button.textContent;
      pressWhenReady(text, buttonsLike(text).indexOf(button), Date.now() + 10000);
    },
    true,
  );
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
