export declare const ROOT: string;
export declare function packageName(specifier: string): string;
/** The package.json fields the build and its tests read. */
export interface PackageJson {
  name: string;
  version: string;
  type?: string;
  license?: string;
  engines: Record<string, string>;
  exports?: unknown;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  [field: string]: unknown;
}
export declare function readJson(path: string): PackageJson;
export declare function entryPoints(pkg: { exports?: unknown; bin?: unknown }): string[];
export declare function isAsset(target: string): boolean;
export declare function moduleGraph(targets: string[]): {
  /** Source files (src/…, bin/…) reachable from the targets. */
  sources: Set<string>;
  /** Package name → the source files that import it at run time. */
  bare: Map<string, Set<string>>;
  /** Package name → the source files that import types from it. */
  types: Map<string, Set<string>>;
  /** `file imports node:x`, for each Node built-in import. */
  builtins: Set<string>;
};
