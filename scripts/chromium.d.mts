export declare const DEFAULT_CHROMIUM: string;
export declare const APT_PACKAGES: string[];
export declare function isExecutableFile(file: string): boolean;
export interface EnsureChromiumOptions {
  env?: Record<string, string | undefined>;
  isRoot?: boolean;
  canApt?: boolean;
  exists?: (file: string) => boolean;
  install?: (packages: string[]) => boolean;
  log?: (line: string) => void;
}
export declare function ensureChromium(
  options?: EnsureChromiumOptions,
): Promise<{ path: string; error?: undefined } | { error: string; path?: undefined }>;
