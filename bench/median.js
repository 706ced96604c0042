// The result of a workload measured in several Node processes: each timing or count the median
// over the processes, the rest taken from the first.

/** Merges the results of one workload part (the same rows in each) cell by cell. */
export function medianResult(runs) {
  const [first] = runs;
  if (runs.length === 1) return first;
  return {
    ...first,
    rows: first.rows.map((row, i) => ({
      ...row,
      values: Object.fromEntries(
        Object.entries(row.values).map(([key, value]) => [
          key,
          medianValue(
            value,
            runs.map((r) => r.rows[i]?.values[key]),
          ),
        ]),
      ),
    })),
    warnings: [...new Set(runs.flatMap((r) => r.warnings ?? []))],
    cpuShare: Math.min(...runs.map((r) => r.cpuShare)),
    processes: runs.length,
  };
}

// A number: the median of the numbers; an object with `ms`: the first's, with the median ms;
// anything else (text, n/a): the first's.
function medianValue(value, all) {
  if (typeof value === 'number') return median(all.filter((v) => typeof v === 'number'));
  if (value !== null && typeof value === 'object' && typeof value.ms === 'number') {
    return { ...value, ms: median(all.map((v) => v?.ms).filter((v) => typeof v === 'number')) };
  }
  return value;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
