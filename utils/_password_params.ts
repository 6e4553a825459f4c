// Bounds shared by configuration checks and by hash parsing, so that every
// hash this module writes can also be read back by it.

/** Resolved scrypt parameters. */
export interface ScryptParams {
  cost: number;
  blockSize: number;
  parallelization: number;
}

/** Defaults from the specification: cost 32768, block size 8, parallelization 1. */
export const DEFAULT_PARAMS: Readonly<ScryptParams> = Object.freeze({
  cost: 32768,
  blockSize: 8,
  parallelization: 1,
});

/** Largest cost accepted (2^24). */
export const MAX_COST: number = 2 ** 24;
/** Largest block size accepted. */
export const MAX_BLOCK_SIZE: number = 64;
/** Largest parallelization accepted. */
export const MAX_PARALLELIZATION: number = 16;
/**
 * Ceiling on 128 * cost * blockSize * parallelization: 1 GiB of memory
 * traffic, about 32 times the default. A stored hash above it is treated as
 * malformed instead of being allowed to stall the process.
 */
export const MAX_WORK_BYTES: number = 2 ** 30;
/**
 * Ceiling on the memory one derivation holds (128 * cost * blockSize).
 */
export const MAX_MEMORY_BYTES: number = 256 * 2 ** 20;

/** Whether `n` is a power of two of at least 2. */
export function isPowerOfTwo(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 2 && (n & (n - 1)) === 0;
}

/**
 * Returns why the parameters are unusable, as `[parameter, reason]`, or null
 * when they are fine.
 */
export function paramsProblem(
  params: ScryptParams,
): [keyof ScryptParams, string] | null {
  const { cost, blockSize, parallelization } = params;
  for (const key of ["cost", "blockSize", "parallelization"] as const) {
    const value = params[key];
    if (typeof value !== "number" || !Number.isSafeInteger(value)) {
      return [key, "must be an integer"];
    }
    if (value < 1) return [key, "must be at least 1"];
  }
  if (!isPowerOfTwo(cost)) return ["cost", "must be a power of two"];
  if (cost > MAX_COST) return ["cost", `must be at most ${MAX_COST}`];
  if (blockSize > MAX_BLOCK_SIZE) {
    return ["blockSize", `must be at most ${MAX_BLOCK_SIZE}`];
  }
  if (parallelization > MAX_PARALLELIZATION) {
    return ["parallelization", `must be at most ${MAX_PARALLELIZATION}`];
  }
  if (128 * cost * blockSize > MAX_MEMORY_BYTES) {
    return [
      "cost",
      `times blockSize must be at most ${MAX_MEMORY_BYTES / 128}`,
    ];
  }
  if (128 * cost * blockSize * parallelization > MAX_WORK_BYTES) {
    return [
      "cost",
      `times blockSize times parallelization must be at most ${
        MAX_WORK_BYTES / 128
      }`,
    ];
  }
  return null;
}

/**
 * The `maxmem` scrypt needs for these parameters, with headroom: Node refuses
 * a derivation whose estimate reaches `maxmem`, and its default (32 MiB) is
 * exactly what the default parameters need.
 */
export function maxmemFor(params: ScryptParams): number {
  return 256 * params.cost * params.blockSize +
    128 * params.blockSize * params.parallelization + 2 ** 20;
}
