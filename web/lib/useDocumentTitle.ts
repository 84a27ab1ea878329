import { useEffect } from "react";

export const APP_NAME = "Lekebytte";
const DEFAULT_TITLE = "Lekebytte – kjøp, selg, gi bort og bytt brukte leker";

/** Sets `{title} | Lekebytte` while the page is shown (the default title without one). */
export function useDocumentTitle(title?: string): void {
  useEffect(() => {
    document.title = title ? `${title} | ${APP_NAME}` : DEFAULT_TITLE;
  }, [title]);
}
