// What receives a data file piece by piece: the JSON and CSV writers, the server's sync. The
// pieces come in the reader's order: users as they are read; a license's users before its
// license (JSON, where the license is complete only at its end) or after it (CSV).

/**
 * What a writer is handed for each kind of record. As it is (every value `unknown`), the values
 * as read: a file with errors may have users that are not objects. A normalising pass hands
 * NormalizedValues.
 */
export interface DocumentValues {
  user: unknown;
  license: unknown;
  licenseUser: unknown;
}

/**
 * Receives the document piece by piece; `end()` after the last. `DocumentWriter` takes values as
 * read (and so any values); `DocumentWriter<NormalizedValues>` only what a normalising pass hands.
 */
// properties, not methods: their parameters are checked strictly, so that a writer that needs
// normalised values cannot be given to a pass that hands them as read
export interface DocumentWriter<V extends DocumentValues = DocumentValues> {
  /** A user. */
  user: (value: V["user"]) => void;
  /**
   * A license. `userCount` is how many of its users were given before it (JSON) or will be
   * given after it (CSV), as licenseUser calls with its index.
   */
  license: (index: number, value: V["license"], userCount: number) => void;
  /** A user of license `licenseIndex`; `afterUsers` when every user of the file came before. */
  licenseUser: (licenseIndex: number, value: V["licenseUser"], afterUsers: boolean) => void;
  /**
   * When the writer writes JSON as read (JsonWriter): `count` users of the license given last
   * at once, as the bytes of its items (JsonWriter.licenseUserItems), in place of as many
   * licenseUser calls.
   */
  licenseUserItems?: (licenseIndex: number, count: number, items: Iterable<Uint8Array>) => void;
  /** After the last piece. */
  end: () => void;
}
