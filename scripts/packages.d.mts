// Types of packages.mjs, for the test of the packages.

export const WORKSPACES: Record<string, { dir: string; folders: readonly string[] }>;
export function npm(args: string[], cwd: string): Promise<string>;
export function packAll(into: string): Promise<Record<string, string>>;
export function installInto(tarballs: string[], folder?: string): Promise<string>;
export function sizeOf(path: string): number;
export function diskUsageOf(path: string): number;
