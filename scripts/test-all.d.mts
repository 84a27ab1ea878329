export interface Stage {
  name: string;
  command: string[];
}
export interface StageResult {
  name: string;
  status: string;
  ms: number | undefined;
}
export declare const STAGES: Stage[];
export declare function runStages(
  stages: Stage[],
  options?: { now?: () => number; stdio?: "inherit" | "ignore"; cwd?: string },
): Promise<{ exitCode: number; results: StageResult[] }>;
export declare function formatTable(results: StageResult[]): string;
