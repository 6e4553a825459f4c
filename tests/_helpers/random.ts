/**
 * Seeded randomness for the fuzz tests: the same seed replays the same run.
 *
 * @module
 */

/** A random number generator returning floats in [0, 1). */
export type Rng = () => number;

/** The mulberry32 generator seeded with `seed`: small, fast and good enough for fuzzing. */
export function mulberry32(seed: number): Rng {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One item of `list`, chosen by `rng`. */
export const pick = <T>(rng: Rng, list: readonly T[]): T =>
  list[Math.floor(rng() * list.length)];
