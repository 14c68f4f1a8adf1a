export declare function publishedPackages(): { dir: string; pkg: any }[];
export declare function buildPackage(pkg: { dir: string; pkg: any }): number;
export declare const VENDORED: Record<string, { file: string; packages: string[]; external: string[] }>;
export declare function vendorBundle(pkg: any, config: { packages: string[]; external: string[] }, outfile: string): string[];
