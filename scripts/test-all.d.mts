export interface Stage {
  name: string;
  command: string[];
  /**
   * "first" stages run in order before any other; then "main" (the default), which prints as it
   * runs, and any other lane side by side with it, its output held back.
   */
  lane?: string;
  /** Added to the environment the stage runs in. */
  env?: Record<string, string>;
}
export interface StageResult {
  name: string;
  status: string;
  ms: number | undefined;
}
export declare const STAGES: Stage[];
export declare function runStages(
  stages: Stage[],
  options?: { now?: () => number; stdio?: "inherit" | "ignore"; cwd?: string; signals?: boolean },
): Promise<{ exitCode: number; ms: number; results: StageResult[] }>;
export declare function formatTable(results: (StageResult & { beside?: boolean })[], wallMs: number): string;
