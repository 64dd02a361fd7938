import type { BuildOptions } from 'esbuild';

export declare const CLI_OUT: string;
export declare const CLI_BUNDLE: string;
export declare const LEFT_OUT: string[];
export declare const NODE_BUNDLE: BuildOptions;
export declare function buildCli(): Promise<void>;
