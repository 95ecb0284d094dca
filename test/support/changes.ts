// Two documents of one app account, before and after, and every kind of change a sync of the
// second makes to an account holding the first, in the order `syncfile diff` tells them (the
// server's history tells them the same way).

import type { Change } from "../../src/diff/Change.js";

export const OLD = {
  users: [
    {
      email: "ada@example.com",
      firstName: "Ada",
      lastName: "Lovelace",
      status: "active",
      lastUsedDate: "2024-07-01",
    },
    { email: "bob@example.com", status: "active" },
    { email: "eve@example.com", status: "active" },
    { email: "Zoe@Example.com", status: "deleted" },
  ],
  licenses: [
    { name: "Pro", pricePerUser: 1000, users: [{ email: "ada@example.com" }, { email: "bob@example.com" }] },
    { name: "Legacy", users: [] },
  ],
};
export const NEW = {
  users: [
    {
      email: "ada@example.com",
      firstName: "Ada",
      lastName: "King",
      status: "active",
      lastUsedDate: "2024-07-05",
    },
    { email: "eve@example.com", status: "deleted" },
    { email: "zoe@example.com", status: "active" },
    { email: "dan@example.com", status: "active" },
  ],
  licenses: [
    {
      name: "Pro",
      pricePerUser: 1200,
      users: [{ email: "ada@example.com", licenseStatus: "inactive" }, { email: "dan@example.com" }],
    },
    { name: "Viewer", unassignedAmount: 3, users: [] },
  ],
};

export const CHANGES: Change[] = [
  {
    kind: "user.changed",
    email: "ada@example.com",
    fields: [
      { field: "lastName", from: "Lovelace", to: "King" },
      { field: "lastUsedDate", from: "2024-07-01", to: "2024-07-05" },
    ],
  },
  {
    kind: "user.removed",
    email: "bob@example.com",
    user: { email: "bob@example.com", status: "active" },
  },
  { kind: "user.added", email: "dan@example.com", user: { email: "dan@example.com", status: "active" } },
  { kind: "user.deactivated", email: "eve@example.com" },
  // Zoe@Example.com → zoe@example.com: the same user (reactivated), no change of email
  { kind: "user.reactivated", email: "zoe@example.com" },
  { kind: "license.removed", license: "Legacy", value: { name: "Legacy" } },
  { kind: "license.changed", license: "Pro", fields: [{ field: "pricePerUser", from: 1000, to: 1200 }] },
  { kind: "license.added", license: "Viewer", value: { name: "Viewer", unassignedAmount: 3 } },
  {
    kind: "assignment.changed",
    license: "Pro",
    email: "ada@example.com",
    from: "active",
    to: "inactive",
  },
  { kind: "assignment.revoked", license: "Pro", email: "bob@example.com" },
  { kind: "assignment.granted", license: "Pro", email: "dan@example.com" },
];
