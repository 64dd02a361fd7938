import type { BuildOptions } from 'esbuild';
export declare const CLI_OUT: string;
export declare const NODE_BUNDLE: BuildOptions;
export declare function buildCli(): Promise<void>;
