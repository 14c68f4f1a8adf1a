import type { PackageJson } from './graph.mjs';
export declare function publishedPackages(): { dir: string; pkg: PackageJson }[];
export declare function buildPackage(pkg: { dir: string; pkg: PackageJson }): number;
export declare const VENDORED: Record<
  string,
  { file: string; packages: string[]; external: string[] }
>;
export declare function vendorBundle(
  pkg: PackageJson,
  config: { packages: string[]; external: string[] },
  outfile: string,
): string[];
export declare const SERVED: Record<string, string[]>;
