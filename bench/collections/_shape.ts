// The request both servers of the collections benchmark answer.

/** Rows in the collection. */
export const ROWS = 100_000;

/**
 * The request measured, over `rows` rows whose view counts are 0 … rows-1: the `where` (in
 * the wire literal syntax, as a client writes it) admits half of them, the index on views
 * serves the top 20.
 */
export function listPath(rows: number): string {
  const minViews = Math.floor(rows / 2);
  return `/collections/posts?where={views:{atLeast:${minViews}}}&order=[-views]&limit=20`;
}
