/** The built configuration `wrangler deploy` will use (the Vite plugin's output, via .wrangler/deploy). */
export function builtConfig(root?: string): { name?: string; targetEnvironment?: string; vars?: Record<string, string> };

/** Why the built configuration is not `environment`'s, or null. */
export function builtConfigProblem(
  config: { name?: string; targetEnvironment?: string; vars?: Record<string, string> },
  environment: string,
): string | null;
