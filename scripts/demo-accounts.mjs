// The demo accounts that `npm run seed` creates and `npm start` prints. Local development only: these
// are not real people and the password is public.

export const DEMO_PASSWORD = "lekebytte123";

/** @typedef {{ key: string, email: string, name: string, role: "user" | "moderator" | "admin", postalCode: string, streetAddress: string }} DemoAccount */

/** @type {DemoAccount[]} */
export const DEMO_ACCOUNTS = [
  { key: "kari", email: "kari@lekebytte.test", name: "Kari Nordmann", role: "user", postalCode: "0150", streetAddress: "Storgata 12" },
  { key: "ola", email: "ola@lekebytte.test", name: "Ola Hansen", role: "user", postalCode: "5003", streetAddress: "Bryggen 4" },
  { key: "ingrid", email: "ingrid@lekebytte.test", name: "Ingrid Berg", role: "user", postalCode: "7010", streetAddress: "Munkegata 20" },
  { key: "lars", email: "lars@lekebytte.test", name: "Lars Johansen", role: "user", postalCode: "4006", streetAddress: "Kirkegata 7" },
  { key: "sofie", email: "sofie@lekebytte.test", name: "Sofie Larsen", role: "user", postalCode: "9008", streetAddress: "Storgata 31" },
  { key: "emil", email: "emil@lekebytte.test", name: "Emil Nilsen", role: "user", postalCode: "4608", streetAddress: "Markens gate 15" },
  { key: "nora", email: "nora@lekebytte.test", name: "Nora Pedersen", role: "user", postalCode: "3015", streetAddress: "Torggata 3" },
  {
    key: "marte",
    email: "moderator@lekebytte.test",
    name: "Marte Moe",
    role: "moderator",
    postalCode: "1606",
    streetAddress: "Nygaardsgata 9",
  },
  { key: "anders", email: "admin@lekebytte.test", name: "Anders Dahl", role: "admin", postalCode: "0255", streetAddress: "Bygdøy allé 21" },
];

/** The system sender of notifications (docs/product.md "Notification test"); it can never sign in. */
export const SYSTEM_USER = {
  id: "00000000-0000-0000-0000-000000000000",
  email: "system@lekebytte.invalid",
  name: "Lekebytte",
};

const ROLE_LABEL = { user: "bruker", moderator: "moderator", admin: "administrator" };

/** Lines for the console: e-mail, password and role of every demo login. */
export function formatDemoLogins() {
  const width = Math.max(...DEMO_ACCOUNTS.map((a) => a.email.length));
  return DEMO_ACCOUNTS.map((a) => `  ${a.email.padEnd(width)}  ${DEMO_PASSWORD}  ${ROLE_LABEL[a.role].padEnd(13)} ${a.name}`);
}
