// The requests both servers of the collections benchmark answer.

/** Rows in the collection. */
export const ROWS = 100_000;

/**
 * The list measured, over `rows` rows whose view counts are 0 … rows-1: the `where` (in
 * the wire literal syntax, as a client writes it) admits half of them, the index on views
 * serves the top 20.
 */
export function listPath(rows: number): string {
  const minViews = Math.floor(rows / 2);
  return `/collections/posts?where={views:{atLeast:${minViews}}}&order=[-views]&limit=20`;
}

/**
 * The page measured: the second page of 20 of the 1% most viewed, with the total (a count
 * over the index range, 1,000 entries at 100k rows).
 */
export function pagePath(rows: number): string {
  const minViews = rows - Math.floor(rows / 100);
  return `/collections/posts?where={views:{atLeast:${minViews}}}&order=[-views]&page=2&perPage=20`;
}

/** The body every create sends. */
export const CREATE_BODY: string = JSON.stringify({
  title: "A new post",
  excerpt: "Written by the benchmark, one of many.",
  views: 0,
  published: true,
});
