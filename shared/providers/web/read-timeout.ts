/** Default time for one page read, parse included (the budget of content analysis counts on it). */
export const PAGE_READ_TIMEOUT_MS = 5_000;
