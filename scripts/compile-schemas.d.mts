// Types of compile-schemas.mjs, for the test that checks its output.
import type { Ajv2020, CodeOptions, Format } from "ajv/dist/2020.js";

export const OUTPUT: string;
export const VALIDATORS: Record<"user" | "license" | "licenseUser" | "document" | "csvRow", string>;
export function schemasAjv(formats: Record<string, Format>, code?: CodeOptions): Ajv2020;
export function compiledSource(): string;
