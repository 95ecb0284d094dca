// Paths of the repository, for tests.

import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../../", import.meta.url));
export const fixture = (name: string): string => `${root}fixtures/${name}`;
export const cli = `${root}packages/cli/dist/cli.js`;
