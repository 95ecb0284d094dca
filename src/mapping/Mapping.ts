// A mapping document made ready to read rows with: its columns as lists of names, its value
// tables and date forms compiled once. Which cells the names are is decided per header
// (csv/MappedRows.ts); the document has been checked against its schema before it comes here.

import { DateForms } from "./dates.js";
import type {
  Columns,
  DateColumn,
  ListColumn,
  MappingDocument,
  NameColumn,
  NameOrder,
  StatusMeaning,
} from "./MappingDocument.js";
import { ValueTable } from "./ValueTable.js";

/** A status value's meaning, resolved; "?": listed, but not decided yet (an error at its rows). */
export type Status =
  | {
      status: "active" | "deleted";
      /** Written as externalStatus instead of the raw value. */
      externalStatus: string | undefined;
    }
  | "?";

/** A list column: its names, its separator (null: `,` and `;`, as the service's layout), what means nothing. */
export interface ListSpec {
  columns: readonly string[];
  separator: string | null;
  ignore: ValueTable<true>;
}

/** The compiled mapping. */
export class Mapping {
  readonly document: MappingDocument;
  readonly name: string;
  readonly title: string;
  readonly email: readonly string[];
  readonly id: readonly string[];
  readonly firstName: readonly string[];
  readonly lastName: readonly string[];
  readonly wholeName: readonly string[];
  /** How the whole-name column writes a name. */
  readonly nameOrder: NameOrder;
  readonly externalStatus: readonly string[];
  /** The status column, and what its values mean (null: the service's own values, as they are). */
  readonly status: { columns: readonly string[]; values: ValueTable<Status> | null } | null;
  readonly roles: ListSpec | null;
  readonly licenses: ListSpec | null;
  readonly lastUsedDate: { columns: readonly string[]; forms: DateForms; never: ValueTable<true> } | null;
  readonly licenseColumns: readonly {
    columns: readonly string[];
    license: string;
    grants: ValueTable<true>;
  }[];
  readonly license: string | null;
  readonly exclude: readonly { columns: readonly string[]; values: ValueTable<true> }[];

  constructor(document: MappingDocument) {
    this.document = document;
    this.name = document.name;
    this.title = document.title ?? document.name;
    this.email = columns(document.email);
    this.id = columns(document.id);
    this.firstName = columns(document.firstName);
    this.lastName = columns(document.lastName);
    const whole = document.fullName;
    const wholeIsColumns = whole === undefined || typeof whole === "string" || Array.isArray(whole);
    this.wholeName = wholeIsColumns
      ? columns(whole as Columns | undefined)
      : columns((whole as Exclude<NameColumn, Columns>).column);
    this.nameOrder = wholeIsColumns
      ? "first last"
      : ((whole as Exclude<NameColumn, Columns>).order ?? "first last");
    this.externalStatus = columns(document.externalStatus);
    const status = document.status;
    if (status === undefined) this.status = null;
    else if (typeof status === "string" || Array.isArray(status)) {
      this.status = { columns: columns(status as Columns), values: null };
    } else {
      const table = status as Exclude<typeof status, Columns>;
      this.status = {
        columns: columns(table.column),
        values: new ValueTable(Object.entries(table.values).map(([v, m]) => [v, meaning(m)] as const)),
      };
    }
    this.roles = list(document.roles);
    this.licenses = list(document.licenses);
    this.lastUsedDate = date(document.lastUsedDate);
    this.licenseColumns = (document.licenseColumns ?? []).map((c) => ({
      columns: columns(c.column),
      license: c.license,
      grants: ValueTable.of(c.grants),
    }));
    this.license = document.license ?? null;
    this.exclude = (document.exclude ?? []).map((e) => ({
      columns: columns(e.column),
      values: ValueTable.of(e.values),
    }));
  }

  /** Every column the mapping reads, with the field it reads it for. */
  reads(): { field: string; columns: readonly string[] }[] {
    const reads: { field: string; columns: readonly string[] }[] = [
      { field: "email", columns: this.email },
      { field: "id", columns: this.id },
      { field: "firstName", columns: this.firstName },
      { field: "lastName", columns: this.lastName },
      { field: "fullName", columns: this.wholeName },
      { field: "status", columns: this.status?.columns ?? [] },
      { field: "externalStatus", columns: this.externalStatus },
      { field: "roles", columns: this.roles?.columns ?? [] },
      { field: "lastUsedDate", columns: this.lastUsedDate?.columns ?? [] },
      { field: "licenses", columns: this.licenses?.columns ?? [] },
      ...this.licenseColumns.map((c) => ({ field: `license ${c.license}`, columns: c.columns })),
      ...this.exclude.map((e) => ({ field: "exclude", columns: e.columns })),
    ];
    return reads.filter((r) => r.columns.length > 0);
  }
}

function columns(spec: Columns | undefined): readonly string[] {
  if (spec === undefined) return [];
  return typeof spec === "string" ? [spec] : spec;
}

function meaning(m: StatusMeaning): Status {
  if (m === "?") return m;
  return typeof m === "string"
    ? { status: m, externalStatus: undefined }
    : { status: m.status, externalStatus: m.externalStatus };
}

function list(spec: ListColumn | undefined): ListSpec | null {
  if (spec === undefined) return null;
  if (typeof spec === "string" || Array.isArray(spec)) {
    return { columns: columns(spec as Columns), separator: null, ignore: ValueTable.of([]) };
  }
  const object = spec as Exclude<ListColumn, Columns>;
  return {
    columns: columns(object.column),
    separator: object.separator ?? null,
    ignore: ValueTable.of(object.ignore ?? []),
  };
}

function date(spec: DateColumn | undefined): Mapping["lastUsedDate"] {
  if (spec === undefined) return null;
  if (typeof spec === "string" || Array.isArray(spec)) {
    return { columns: columns(spec as Columns), forms: new DateForms([]), never: ValueTable.of([]) };
  }
  const object = spec as Exclude<DateColumn, Columns>;
  return {
    columns: columns(object.column),
    forms: new DateForms(object.forms ?? []),
    never: ValueTable.of(object.never ?? []),
  };
}
