// Business constants (docs/product.md "Limits and timings").
export const MAX_IMAGES_PER_LISTING = 5;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const IMAGE_CACHE_SECONDS = 3600;
export const TITLE_MIN_LENGTH = 3;
export const TITLE_MAX_LENGTH = 120;
export const DESCRIPTION_MAX_LENGTH = 5000;
/** Highest listing price in whole kroner. */
export const LISTING_PRICE_MAX = 1_000_000;
export const DISPLAY_NAME_MAX_LENGTH = 80;
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MAX_LENGTH = 200;
export const POSTAL_CODE_MIN_LENGTH = 4;
export const POSTAL_CODE_MAX_LENGTH = 4;
/** The profile's "Gateadresse", as long as a parcel's address line may be (domain/schemas/payments.ts). */
export const STREET_ADDRESS_MAX_LENGTH = 100;
export const PASSWORD_MIN_LENGTH = 6;
export const HOME_NEWEST_COUNT = 6;
export const HOME_FREE_COUNT = 4;
export const HOME_TRADE_COUNT = 4;
export const SEARCH_PAGE_SIZE = 50;
export const SEARCH_DEBOUNCE_MS = 300;
export const PRICE_MIN = 0;
export const PRICE_MAX = 10000;
export const PRICE_STEP = 50;
export const UNREAD_BADGE_CAP = 99;
export const UNREAD_POLL_MS = 10_000;
export const SLUG_ID_CHARS = 6;
export const DESCRIPTION_SNIPPET_CHARS = 120;
export const CALLBACK_REDIRECT_MS = 400;
export const SELLER_OTHER_LISTINGS = 4;
