// A mapping document as schemas/mapping.schema.json describes it: how the columns of a user
// export make the service's data file. Users write these; the built-in profiles are these.

/** A column as the header names it, or columns in order: the first with a value in the row counts. */
export type Columns = string | readonly string[];

/**
 * What a status value means: the status, and optionally the externalStatus written instead of
 * the value; "?" not decided yet (what `mapping suggest` writes for Leave of absence), an error
 * at its rows until the admin writes what it means.
 */
export type StatusMeaning =
  | "active"
  | "deleted"
  | "?"
  | { status: "active" | "deleted"; externalStatus?: string };

/** How a whole-name column writes a name: Ada Lovelace, or Lovelace, Ada. */
export type NameOrder = "first last" | "last, first";

/** A whole-name column, and the order of its names. */
export type NameColumn = Columns | { column: Columns; order?: NameOrder };

/** A list column: items separated by `,` or `;` (a name alone), or by its own separator. */
export type ListColumn = Columns | { column: Columns; separator?: string; ignore?: readonly string[] };

/** A date column: the forms its dates are written in, and the values that mean no date. */
export type DateColumn = Columns | { column: Columns; forms?: readonly string[]; never?: readonly string[] };

/** The mapping document. */
export interface MappingDocument {
  $schema?: string;
  name: string;
  title?: string;
  detect?: readonly (string | readonly string[])[];
  headerRow?: number;
  /** one (default): a row a user; many: a user's rows add up, as in the service's own layout. */
  rowsPerUser?: "one" | "many";
  email: Columns;
  id?: Columns;
  firstName?: Columns;
  lastName?: Columns;
  fullName?: NameColumn;
  /** A column of the service's values (active, deleted, in any case), or a column and what its values mean. */
  status?: Columns | { column: Columns; values: Readonly<Record<string, StatusMeaning>> };
  externalStatus?: Columns;
  roles?: ListColumn;
  lastUsedDate?: DateColumn;
  licenses?: ListColumn;
  licenseColumns?: readonly { column: Columns; license: string; grants: readonly string[] }[];
  license?: string;
  exclude?: readonly { column: Columns; values: readonly string[] }[];
}
