/**
 * The one table format every benchmark prints: for each measure the peer's figure, ours,
 * the ratio ours/peer and whether the target is met.
 *
 * @module
 */
import { takeRetries } from "./_load.ts";

/** One measured comparison. */
export interface Comparison {
  /** What was measured, e.g. `param route req/s`. */
  readonly measure: string;
  /** The peer's name, e.g. `Hono`. */
  readonly peer: string;
  /** The peer's figure. */
  readonly peerValue: number;
  /** Our figure. */
  readonly ours: number;
  /** Lowest acceptable ratio ours/peer (`undefined`: reported, no target). */
  readonly min?: number;
  /** Highest acceptable ratio (for "within 5%" targets). */
  readonly max?: number;
  /** Digits after the point for the figures (default 0). */
  readonly digits?: number;
}

/** A benchmark's printed result. */
export interface BenchReport {
  /** The benchmark's title. */
  readonly title: string;
  /** How it was measured (load, rounds, data size). */
  readonly method: string;
  /** Its comparisons. */
  readonly rows: readonly Comparison[];
}

/** Whether a comparison meets its target (`undefined` when it has none). */
export function targetMet(row: Comparison): boolean | undefined {
  if (row.min === undefined && row.max === undefined) return undefined;
  const ratio = row.ours / row.peerValue;
  return (row.min === undefined || ratio >= row.min) &&
    (row.max === undefined || ratio <= row.max);
}

function targetText(row: Comparison): string {
  if (row.min !== undefined && row.max !== undefined) {
    return `${row.min.toFixed(2)}–${row.max.toFixed(2)}`;
  }
  if (row.min !== undefined) return `≥ ${row.min.toFixed(2)}`;
  if (row.max !== undefined) return `≤ ${row.max.toFixed(2)}`;
  return "—";
}

/** Renders a report as a Markdown table with a title line. */
export function formatReport(report: BenchReport): string {
  const header = [
    "measure",
    "peer",
    "peer figure",
    "Strata",
    "ratio",
    "target",
    "met",
  ];
  const body = report.rows.map((row) => {
    const met = targetMet(row);
    return [
      row.measure,
      row.peer,
      row.peerValue.toFixed(row.digits ?? 0),
      row.ours.toFixed(row.digits ?? 0),
      (row.ours / row.peerValue).toFixed(2),
      targetText(row),
      met === undefined ? "—" : met ? "yes" : "NO",
    ];
  });
  const widths = header.map((title, i) =>
    Math.max(title.length, ...body.map((cells) => cells[i].length))
  );
  const line = (cells: string[]) =>
    `| ${
      cells.map((cell, i) =>
        i >= 2 && i <= 4 ? cell.padStart(widths[i]) : cell.padEnd(widths[i])
      ).join(" | ")
    } |`;
  return [
    `## ${report.title}`,
    report.method,
    "",
    line(header),
    `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`,
    ...body.map(line),
  ].join("\n");
}

/**
 * Prints a report, and under it the rounds retried while it was measured (wrk timeouts on
 * a loaded machine, see `wrk` in _load.ts): a figure is a retried round's, not a lost run.
 */
export function printReport(report: BenchReport): void {
  const retries = takeRetries();
  console.log(
    formatReport(report) +
      (retries.length > 0
        ? `\n\n${retries.length} round${
          retries.length === 1 ? "" : "s"
        } retried after wrk timeouts:\n${
          retries.map((line) => `- ${line}`).join("\n")
        }`
        : "") +
      "\n",
  );
}

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The `p` quantile of `values` (nearest rank: `percentile(latencies, 0.99)` is the p99). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}
