// Who a user is on Lekebytte (docs/product.md "Moderation"): an account's role, set by an admin.
export const ROLES = ["user", "moderator", "admin"] as const;
export type Role = (typeof ROLES)[number];
