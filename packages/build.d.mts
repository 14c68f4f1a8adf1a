export declare function publishedPackages(): { dir: string; pkg: any }[];
export declare function buildPackage(pkg: { dir: string; pkg: any }): number;
