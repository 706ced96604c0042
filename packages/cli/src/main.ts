// The quadkit command: index, query and join GeoJSON, newline-delimited GeoJSON, CSV and
// FlatGeobuf files, and write them as a .qk index, FlatGeobuf or GeoParquet.
// `main` runs one command line on given streams and returns its exit status; bin/quadkit.js
// calls it with the process's own. Each command's module (and the readers, writers and library
// it needs) is loaded when that command runs: help and argument errors come at once.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { CliError } from './errors.js';
import { type Io, processIo } from './io.js';
import { decimal, READABLE } from './numbers.js';
import { STDIN } from './stdin.js';

export type { Io } from './io.js';

// The examples each help prints. Every one works as printed, in this order, in any folder: the
// first writes the sample files the others read (the tests run them all).
const EXAMPLES = {
  quadkit: [
    'quadkit sample',
    'quadkit query cities.csv --near 2.2945,48.8584 -k 3 --format csv',
    'quadkit query countries.geojson --point 14.42,50.09 --format ndjson',
    'cat cities.csv | quadkit query - --bbox 5.9,45.8,10.5,47.8 --format csv',
    'quadkit index cities.csv -o cities.qk',
    'quadkit query cities.qk --bbox 170,-50,-170,-10 --format csv',
    'quadkit join cities.csv countries.geojson --count --format csv',
  ],
  sample: ['quadkit sample', 'quadkit sample data'],
  index: [
    'quadkit sample',
    'quadkit index cities.csv -o cities.qk',
    'quadkit query cities.qk --bbox 170,-50,-170,-10 --format csv',
    'quadkit index countries.geojson -o countries.fgb',
    'quadkit index cities.csv -o cities.parquet --zoom 10',
  ],
  query: [
    'quadkit sample',
    'quadkit index countries.geojson -o countries.fgb',
    'quadkit query countries.fgb --bbox 5.9,45.8,10.5,47.8 --format ndjson',
    'quadkit query cities.csv --near 2.2945,48.8584 -k 3 --format csv',
    'quadkit query cities.csv --within 135.768,35.0116,50 --format ndjson',
    'quadkit query countries.geojson --point 14.42,50.09 --format ndjson',
    'cat cities.csv | quadkit query - --bbox 5.9,45.8,10.5,47.8 --format csv',
  ],
  join: [
    'quadkit sample',
    'quadkit join cities.csv countries.geojson --as in_country --format csv',
    'quadkit join cities.csv countries.geojson --count --format csv',
  ],
};

const examples = (
  lines: string[],
  heading = 'Examples (quadkit sample writes the files the others read):',
) => `\n${heading}\n${lines.map((line) => `  ${line}`).join('\n')}\n`;

const PRECISION = `
Numbers: distances are great-circle, in kilometres (distance_km). GeoJSON and
NDJSON output are exact; CSV output rounds distances to ${READABLE.km} decimals (the metre)
and longitudes and latitudes to ${READABLE.degrees} decimals (0.1 m), unless --full-precision.
`;

const FORMATS = `
Formats: .qk when quadkit queries the file (quickest); .fgb (FlatGeobuf, with
its packed R-tree) for QGIS, GDAL and web maps reading by HTTP range; .parquet
(GeoParquet 1.1: WKB geometry, a bbox column, a quadkey column, rows in
Hilbert order, so that each row group covers a compact region) for DuckDB,
Sedona or PostGIS.
`;

const EXIT = `
Exit status: 0 when done; 1 on bad arguments or input, with one line on stderr
that names the file, the line or feature, and the value.
`;

/**
 * The command line parser, writing to `io`, and running each command on `io`.
 * @param io - the streams of this run.
 */
function createProgram(io: Io): Command {
  const program = new Command('quadkit')
    .description(
      'Spatial indexes over GeoJSON, newline-delimited GeoJSON, CSV and FlatGeobuf files (longitude/latitude).',
    )
    .version('0.2.0')
    // Errors, help and exits go through `io` and come back to `main` as exceptions.
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      getOutHelpWidth: () => (io.stdout.isTTY ? io.stdout.columns : undefined) ?? 80,
      getErrHelpWidth: () => (io.stderr.isTTY ? io.stderr.columns : undefined) ?? 80,
      // Argument errors as the others: one line with the quadkit: prefix, and where help is.
      outputError: (text, write) => write(text.replace(/^error: /, 'quadkit: ')),
    })
    .showHelpAfterError('(quadkit --help, or quadkit COMMAND --help, for the usage)')
    .addHelpText('after', `${examples(EXAMPLES.quadkit)}${PRECISION}${EXIT}`);

  program
    .command('sample')
    .description(
      "write the sample files the examples read: cities.csv (the world's cities of 100,000 people or more) and countries.geojson",
    )
    .argument('[folder]', 'where to write them (made if missing)', '.')
    .option('-q, --quiet', 'no line naming each file written')
    .addHelpText(
      'after',
      `${examples(EXAMPLES.sample, 'Examples:')}
A file of the same name already there is left alone if it is the sample, else
it is an error and nothing is written. Sources: GeoNames cities (CC BY 4.0),
Natural Earth countries (public domain).
`,
    )
    .action(async (folder: string, options) =>
      (await import('./commands/sample.js')).runSample(folder, options, io),
    );

  inputOptions(
    program
      .command('index')
      .description(
        'build a spatial index of a file and save it with its features: .qk, FlatGeobuf or GeoParquet',
      )
      .argument(
        '<file>',
        'GeoJSON, newline-delimited GeoJSON, CSV or FlatGeobuf file (- for standard input)',
      )
      .requiredOption(
        '-o, --output <file>',
        'the file to write; its extension picks the format: .fgb FlatGeobuf, .parquet GeoParquet, else a quadkit index (.qk)',
      )
      .addOption(
        new Option('--zoom <z>', 'zoom of the quadkey column of a .parquet output (0-30)')
          .argParser(zoom)
          .default(12),
      )
      .option('--row-group <rows>', 'rows per row group of a .parquet output', count, 65536)
      .addHelpText('after', `${examples(EXAMPLES.index)}${FORMATS}`),
  ).action(async (file: string, options, command: Command) => {
    if (!options.output.toLowerCase().endsWith('.parquet'))
      refuse(command, ['--zoom', '--row-group'], 'applies to a .parquet output');
    return (await import('./commands/index.js')).runIndex(file, options, io);
  });

  inputOptions(
    program
      .command('query')
      .description('write the features of a file or index that match one query to stdout')
      .argument(
        '<file>',
        'a .qk index, a FlatGeobuf (.fgb), or a GeoJSON, newline-delimited GeoJSON or CSV file (- for standard input)',
      )
      .option(
        '--bbox <west,south,east,north>',
        'features meeting a box (west > east crosses 180°)',
        list(4),
      )
      .option('--point <lon,lat>', 'features containing a point', list(2))
      .option('--near <lon,lat>', 'the nearest features by great-circle distance', list(2))
      .option('-k <n>', 'how many nearest features (with --near)', count, 1)
      .addOption(
        new Option('--max-km <km>', 'farthest distance for --near, in kilometres')
          .argParser(positive)
          .default(Number.POSITIVE_INFINITY, 'no limit'),
      )
      .option('--within <lon,lat,km>', 'features within a great-circle radius', list(3))
      .addOption(outputFormat())
      .addOption(fullPrecision())
      .addHelpText('after', `${examples(EXAMPLES.query)}${PRECISION}`),
  ).action((file: string, options, command: Command) => {
    if (options.near === undefined) refuse(command, ['-k', '--max-km'], 'applies only to --near');
    if (file.endsWith('.qk') || file.toLowerCase().endsWith('.fgb'))
      refuse(
        command,
        ['--input-format', '--lon', '--lat'],
        `does not apply to ${file.endsWith('.qk') ? 'a .qk index' : 'a FlatGeobuf file'} (it holds its features as they were read)`,
      );
    refuseFullPrecision(command, options.format);
    return import('./commands/query.js').then((m) => m.runQuery(file, options, io));
  });

  inputOptions(
    program
      .command('join')
      .description('tag each point with the polygon containing it, or count points per polygon')
      .argument(
        '<points>',
        'points: GeoJSON, newline-delimited GeoJSON, CSV or FlatGeobuf file (or -)',
      )
      .argument(
        '<polygons>',
        'polygons: GeoJSON, newline-delimited GeoJSON or FlatGeobuf file (or -)',
      )
      .option('--count', 'write the polygons with the number of points each contains')
      .option(
        '--property <name>',
        'the polygon property copied onto each point (default: name, else the polygon index)',
      )
      .option(
        '--as <name>',
        'the point property that receives it (default: polygon_ and the property name)',
      )
      .addOption(outputFormat())
      .addOption(fullPrecision())
      .addHelpText('after', examples(EXAMPLES.join)),
  ).action((points: string, polygons: string, options, command: Command) => {
    if (points === STDIN && polygons === STDIN)
      throw new CliError(
        'standard input (-) can be read only once: give one of the two files as -',
      );
    if (options.count === true)
      refuse(command, ['--property', '--as'], 'does not apply to --count (it writes point_count)');
    refuseFullPrecision(command, options.format);
    return import('./commands/join.js').then((m) => m.runJoin(points, polygons, options, io));
  });

  return program;
}

const inputOptions = (command: Command) =>
  command
    .addOption(
      new Option('--input-format <format>', 'input format (default: from the extension)').choices([
        'geojson',
        'ndjson',
        'csv',
      ]),
    )
    .option('--lon <column>', 'CSV longitude column (default: lon, lng, longitude or x)')
    .option('--lat <column>', 'CSV latitude column (default: lat, latitude or y)')
    .option('-q, --quiet', 'no progress bar');

const outputFormat = () =>
  new Option('-f, --format <format>', 'output format')
    .choices(['geojson', 'ndjson', 'csv'])
    .default('geojson');

const fullPrecision = () =>
  new Option(
    '--full-precision',
    `CSV output: every digit of coordinates and distances (default: ${READABLE.degrees} and ${READABLE.km} decimals)`,
  );

// A flag given that the command will not read is refused rather than ignored: `-k 5` with
// `--bbox` means the user expects something the command does not do.
function refuse(command: Command, flags: string[], why: string): void {
  for (const flag of flags) {
    const option = command.options.find((o) => o.long === flag || o.short === flag);
    if (option !== undefined && command.getOptionValueSource(option.attributeName()) === 'cli')
      throw new CliError(`${flag} ${why}`);
  }
}

function refuseFullPrecision(command: Command, format: string): void {
  if (format !== 'csv')
    refuse(
      command,
      ['--full-precision'],
      `applies to --format csv (${format} output is always exact)`,
    );
}

function list(n: number) {
  return (value: string): number[] => {
    const parts = value.split(',').map((s) => decimal(s.trim()));
    if (parts.length !== n || parts.some((v) => !Number.isFinite(v)))
      throw new InvalidArgumentError(`expected ${n} comma-separated numbers, got "${value}"`);
    return parts;
  };
}

function count(value: string): number {
  const n = decimal(value.trim());
  if (!Number.isInteger(n) || n < 1)
    throw new InvalidArgumentError(`expected a whole number of at least 1, got "${value}"`);
  return n;
}

function zoom(value: string): number {
  const z = decimal(value.trim());
  if (!Number.isInteger(z) || z < 0 || z > 30)
    throw new InvalidArgumentError(`expected a whole zoom from 0 to 30, got "${value}"`);
  return z;
}

function positive(value: string): number {
  const n = value.trim() === 'Infinity' ? Number.POSITIVE_INFINITY : decimal(value.trim());
  if (!(n >= 0)) throw new InvalidArgumentError(`expected a distance of 0 or more, got "${value}"`);
  return n;
}

/**
 * Runs one command line: parses `argv` (the arguments after `quadkit`), runs the command on
 * `io`'s streams, and returns the exit status (0 done, 1 bad arguments or input). Errors in the
 * input are written to `io.stderr` as one line; help and version go to `io.stdout`.
 * @param argv - the arguments, e.g. `['query', 'cities.csv', '--near', '2.35,48.85']`.
 * @param io - standard input, output and error (default: the process's own).
 */
export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  try {
    await createProgram(io).parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (e) {
    // Help, version and argument errors (already written by the parser) end here with their
    // status.
    if (e instanceof CommanderError) return e.exitCode;
    report(e, io.stderr);
    return 1;
  }
}

// Input errors are reported as one line naming the file and place; anything else is a bug and
// keeps its stack.
function report(e: unknown, stderr: Io['stderr']): void {
  const system = e as NodeJS.ErrnoException;
  if (e instanceof CliError || (e instanceof Error && /^quadkit: /.test(e.message))) {
    stderr.write(`quadkit: ${e.message.replace(/^quadkit: /, '')}\n`);
  } else if (
    e instanceof Error &&
    typeof system.code === 'string' &&
    system.syscall !== undefined
  ) {
    // A file the system refused (missing, a directory, no permission): its path and why.
    const path = system.path === undefined ? '' : `${system.path}: `;
    stderr.write(`quadkit: ${path}${system.code} (${system.syscall})\n`);
  } else {
    stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  }
}
