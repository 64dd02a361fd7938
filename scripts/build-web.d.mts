export declare const WEB_SOURCE: string;
export declare const WEB_OUT: string;
export declare function buildWeb(options?: { outDir?: string }): Promise<{ outDir: string; files: string[] }>;
export declare function webBuildIsStale(options?: { outDir?: string }): boolean;
