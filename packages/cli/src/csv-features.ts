// CSV files read as Point features: the coordinate columns found by name (or given), each value
// checked, the rest of each row kept as the feature's properties. The records come from csv.ts.
import { splitCsv } from './csv.js';
import { CliError, openToRead } from './errors.js';
import { Row, type Sourced } from './feature.js';
import { decimal } from './numbers.js';

/** The coordinate columns of a CSV file, and a listener of how far its reading has got. */
export interface CsvOptions {
  lon?: string | undefined;
  lat?: string | undefined;
  onBytes?: ((bytes: number) => void) | undefined;
}

/** Column names taken for longitude and latitude, in order of preference (lower case). */
const LON_NAMES = ['lon', 'lng', 'long', 'longitude', 'x'];
const LAT_NAMES = ['lat', 'latitude', 'y'];

/**
 * The rows of a CSV file as Point features at their longitude and latitude columns, with the
 * rest of the row as properties, a chunk's worth at a time.
 * @param file - the file's path.
 * @param options - `{ lon, lat }`: the coordinate columns (default: detected); `onBytes`: hears
 *   how far the rows given out reach into the file.
 * @param delimiter - the field delimiter (see {@link sniffDelimiter}).
 */
export async function* readCsv(
  file: string,
  options: CsvOptions,
  delimiter: string,
): AsyncGenerator<Sourced[]> {
  let columns: string[] | undefined;
  let lon = -1;
  let lat = -1;
  for await (const { records, lines, end } of splitCsv(file, delimiter)) {
    const run: Sourced[] = [];
    for (let r = 0; r < records.length; r++) {
      const row = records[r]!;
      if (columns === undefined) {
        columns = row;
        const lonName = pickColumn(file, columns, options.lon, LON_NAMES, 'longitude', '--lon');
        const latName = pickColumn(file, columns, options.lat, LAT_NAMES, 'latitude', '--lat');
        lon = columns.lastIndexOf(lonName);
        lat = columns.lastIndexOf(latName);
        continue;
      }
      const line = lines[r]!;
      if (row.length !== columns.length)
        throw new CliError(
          `${file}:${line}: ${row.length} ${row.length === 1 ? 'field' : 'fields'}, but the header has ${columns.length} columns`,
        );
      const x = parseCoordinate(row[lon], columns[lon]!, file, line, 180);
      const y = parseCoordinate(row[lat], columns[lat]!, file, line, 90);
      const properties: Record<string, unknown> = {};
      for (let c = 0; c < columns.length; c++)
        if (columns[c] !== columns[lon] && columns[c] !== columns[lat])
          properties[columns[c]!] = row[c];
      const sourced = new Row(file, null, line);
      sourced.feature = {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [x, y] },
        properties,
      };
      run.push(sourced);
    }
    yield run;
    options.onBytes?.(end);
  }
}

function pickColumn(
  file: string,
  columns: string[],
  given: string | undefined,
  names: string[],
  what: string,
  flag: string,
): string {
  if (given !== undefined) {
    if (!columns.includes(given))
      throw new CliError(
        `${file}: no column "${given}" (${flag}); the columns are ${columns.join(', ')}`,
      );
    return given;
  }
  for (const name of names) {
    const found = columns.find((c) => c.toLowerCase() === name);
    if (found !== undefined) return found;
  }
  throw new CliError(
    `${file}: no ${what} column found (looked for ${names.join(', ')}); name it with ${flag} ` +
      `(the columns are ${columns.join(', ')})`,
  );
}

// The number in a coordinate column, in [-limit, limit] (180 for longitude, 90 for latitude),
// of line `line` of `file`.
function parseCoordinate(
  text: string | undefined,
  column: string,
  file: string,
  line: number,
  limit: number,
): number {
  const value = text === undefined ? Number.NaN : decimal(text.trim());
  if (!Number.isFinite(value))
    throw new CliError(
      `${file}:${line}: column "${column}" must be a number, got ${JSON.stringify(text)}`,
    );
  if (!(Math.abs(value) <= limit))
    throw new CliError(
      `${file}:${line}: column "${column}" must be in [-${limit}, ${limit}] (${limit === 90 ? 'a latitude' : 'a longitude'} in degrees), got ${text}`,
    );
  return value;
}

/**
 * The delimiter of a CSV file, from its first line: the most frequent of comma, semicolon, tab
 * and bar outside quotes (a comma when none is there). One delimiter, not any of them: a
 * comma-separated file may hold a semicolon or a bar in an unquoted field.
 * @param file - the file's path.
 */
export async function sniffDelimiter(file: string): Promise<string> {
  let head = '';
  try {
    const handle = await openToRead(file);
    try {
      const buffer = Buffer.alloc(65536);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      head = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return ',';
  }
  const counts = new Map<string, number>();
  let quoted = false;
  for (const ch of head) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && (ch === ',' || ch === ';' || ch === '\t' || ch === '|'))
      counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  let best = ',';
  for (const [ch, n] of counts) if (n > (counts.get(best) ?? 0)) best = ch;
  return best;
}
