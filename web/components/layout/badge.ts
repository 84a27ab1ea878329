/** The red count on the account button and on its menu's items. */
export const badgeClasses = "rounded-full bg-red-700 px-1 text-center text-xs leading-5 font-bold text-white";
