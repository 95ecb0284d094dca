// Writes the data file as JSON, streaming, one record a line. A license's users that come
// before it (the JSON reader completes a license only at its end) wait in a spill list, so
// that each license is written with its name first and memory stays bounded.

import { ChunkedOut } from "../bytes/ChunkedOut.js";
import type { TextOut } from "../bytes/TextOut.js";
import type { DocumentWriter } from "../model/DocumentWriter.js";
import { SpillList } from "../spill/SpillList.js";

type Section = "none" | "users" | "licenses";

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const json = (value: unknown) => JSON.stringify(value ?? null);

/** A DocumentWriter producing JSON text; it takes values as read (anything JSON.stringify takes). */
export class JsonWriter implements DocumentWriter {
  readonly #out: ChunkedOut;
  #section: Section = "none";
  #sections = 0;
  #items = 0;
  // users of a license not given yet, as JSON text
  #pending = new SpillList<string>(10_000);
  #pendingLicense = -1;
  // the license object still open for users given after it, and how many it has
  #open = -1;
  #openUsers = 0;

  constructor(out: TextOut) {
    this.#out = new ChunkedOut(out);
    this.#out.write("{");
  }

  user(value: unknown): void {
    this.#enter("users");
    this.#item(json(value));
  }

  license(index: number, value: unknown, userCount: number): void {
    this.#enter("licenses");
    this.#closeLicense();
    if (!isObject(value)) {
      this.#item(json(value));
      return;
    }
    const { users: _, ...rest } = value;
    if (userCount === 0 && this.#pendingLicense !== index) {
      this.#item(JSON.stringify(rest)); // a license without users is written without "users"
      return;
    }
    const props = JSON.stringify(rest).slice(1, -1);
    this.#item(`{${props}${props ? "," : ""}"users":[`);
    this.#open = index;
    this.#openUsers = 0;
    if (this.#pendingLicense === index) {
      for (const user of this.#pending) this.#licenseUser(user);
      this.#pending.dispose();
      this.#pendingLicense = -1;
    }
  }

  licenseUser(licenseIndex: number, value: unknown): void {
    if (licenseIndex === this.#open) this.#licenseUser(json(value));
    else {
      this.#pendingLicense = licenseIndex;
      this.#pending.push(json(value));
    }
  }

  end(): void {
    this.#closeLicense();
    this.#leave();
    if (this.#sections === 0) this.#out.write('\n  "users": []');
    this.#out.write("\n}\n");
    this.#out.flush();
    this.#pending.dispose();
  }

  /** Deletes temporary files of an abandoned write. */
  dispose(): void {
    this.#pending.dispose();
  }

  #licenseUser(text: string): void {
    this.#out.write(`${this.#openUsers++ === 0 ? "\n" : ",\n"}      ${text}`);
  }

  #item(text: string): void {
    this.#out.write(`${this.#items++ === 0 ? "\n" : ",\n"}    ${text}`);
  }

  #enter(section: Section): void {
    if (this.#section === section) return;
    this.#closeLicense();
    this.#leave();
    this.#out.write(`${this.#sections++ === 0 ? "" : ","}\n  "${section}": [`);
    this.#section = section;
    this.#items = 0;
  }

  #leave(): void {
    if (this.#section === "none") return;
    this.#out.write(this.#items === 0 ? "]" : "\n  ]");
    this.#section = "none";
  }

  #closeLicense(): void {
    if (this.#open === -1) return;
    this.#out.write(this.#openUsers === 0 ? "]}" : "\n    ]}");
    this.#open = -1;
  }
}
