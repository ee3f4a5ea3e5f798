/** The console workspace's folder. */
export declare const CONSOLE_ROOT: string;
/** Name of the file in console-dist that holds the fingerprint. */
export declare const SOURCE_HASH_FILE: string;
/** SHA-256 (hex) over the console's build inputs (see source-hash.mjs). */
export declare function consoleSourceHash(root?: string): string;
