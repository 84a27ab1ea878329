export interface Stage {
  name: string;
  command: string[];
  /** Starts, and the run goes on with the next stages beside it; its output prints when it ends. */
  background?: boolean;
  /** Waits until every background stage has ended before it starts. */
  alone?: boolean;
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
export declare function formatTable(results: (StageResult & { background?: boolean })[], wallMs: number): string;
