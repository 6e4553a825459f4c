/**
 * The date and time formats an account may choose. A module of its own, free of imports,
 * because the dashboard's client bundles it: the account page offers exactly these.
 *
 * @module
 */

/**
 * The date formats: locale styles (`L`/`l` short, `ll` medium, `LL`/`LLL` long, `LLLL` full)
 * and fixed patterns.
 */
export const DATE_PATTERNS: readonly string[] = Object.freeze([
  "L",
  "l",
  "ll",
  "LL",
  "LLL",
  "LLLL",
  "YYYY-MM-DD",
  "DD.MM.YYYY",
  "DD/MM/YYYY",
  "MM/DD/YYYY",
]);

/** The time formats: locale styles (`LT` short, `LTS` with seconds) and 24-hour patterns. */
export const TIME_PATTERNS: readonly string[] = Object.freeze([
  "LT",
  "LTS",
  "HH:mm",
  "HH:mm:ss",
]);
