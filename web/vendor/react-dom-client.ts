import * as client from "react-dom/client";

// Bundled into the vendor chunk (vite.config.ts). react-dom is CommonJS, and the bundler starts a
// CommonJS module where its exports are first read: re-exported as is, that was inside the entry's
// first run, one long task with the app's own start. Read here, react-dom starts when the vendor
// chunk runs, a task of its own (the app loader runs the entry's chunks one task at a time).
export const { createRoot, hydrateRoot } = client;
