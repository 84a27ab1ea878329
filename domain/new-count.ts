// The "n nye" count of saved searches and the account button's badge. Its own module so the
// account button, on every signed-in page, does not load the rest of the saved-search rules
// (decision 102); `saved-searches.ts` re-exports it.

/** "n nye" and the badge stop counting here ("99+"). */
export const SAVED_SEARCH_NEW_CAP = 99;

/** "99+" above the cap. */
export function formatNewCount(count: number): string {
  return count > SAVED_SEARCH_NEW_CAP ? `${SAVED_SEARCH_NEW_CAP}+` : String(count);
}
