import { cloudflare } from "@cloudflare/vite-plugin";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig(({ command }) => ({
  // `npm run dev` runs the Worker in local mode (dev outbox, built-in JWT fallback); the build that
  // `wrangler deploy` ships keeps wrangler.toml's production default (docs/decisions/018).
  plugins: [react(), tailwindcss(), cloudflare(command === "serve" ? { config: { vars: { APP_ENV: "local" } } } : {})],
  build: {
    // Keep the first load small: vendor code in its own long-cached chunk, routes split lazily.
    rollupOptions: {
      output: {
        manualChunks(id: string) {
          if (/node_modules\/(react|react-dom|scheduler|react-router|react-router-dom)\//.test(id)) return "react";
          return undefined;
        },
      },
    },
  },
}));
