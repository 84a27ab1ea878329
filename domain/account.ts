// What the Worker answers when a user's own account data cannot be read.

export const ACCOUNT_REFUSALS = {
  profileNotFound: "Kunne ikke hente profil", // 404
} as const;
