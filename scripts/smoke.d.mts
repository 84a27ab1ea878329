/** One check's outcome: `error` is null when it passed. */
export interface SmokeResult {
  name: string;
  error: string | null;
}

/** The checks for a target in `mode` ("local", "staging", "production" or "deployed"). */
export function smokeChecks(mode: string): [string, (get: (path: string) => Promise<Response>) => Promise<void>][];

/** Runs every check against `base` (mode: from the URL unless given). */
export function runSmoke(base: string, options?: { mode?: string; fetch?: typeof fetch }): Promise<SmokeResult[]>;
