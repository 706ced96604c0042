// Numbers as the command reads them from its arguments and CSV files, and as it writes them in
// CSV output. (A module of its own: the argument parser needs it before any command is loaded.)

/**
 * The decimal number a text holds, as CSV writers and users write them, else NaN (Number()
 * would also read hex, binary and '' as numbers).
 * @param text - the text, without surrounding spaces.
 */
export function decimal(text: string): number {
  return /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(text) ? Number(text) : Number.NaN;
}

/**
 * The decimals CSV output keeps, unless asked for full precision: longitude and latitude to 6
 * decimals of a degree (at most 0.11 m), distances in kilometres to 3 (the metre). JSON output
 * keeps every digit.
 */
export const READABLE = { degrees: 6, km: 3 } as const;
