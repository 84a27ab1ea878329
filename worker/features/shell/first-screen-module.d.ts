// The web's edge renderer (web/ssr/render.tsx), bundled into the Worker under this name by
// vite.config.ts and vitest.worker.config.mts (decision 103). Declared here so the Worker's
// typecheck sees only the contract in domain/, not the web's browser code.
declare module "virtual:first-screen" {
  export const renderFirstScreen: import("../../../domain/first-screen").RenderFirstScreen;
}
