// Types for node-runtime.mjs, which stays plain JavaScript so that it runs on any Node.
export declare const SUPPORTED_LINES: ReadonlyArray<{ major: number; minimum: string }>;
export declare function nodeSupport(version?: string): 'supported' | 'newer' | 'unsupported';
export declare function assertSupportedNode(program: string, version?: string): void;
export declare function nodeBinary(major: number): string;
