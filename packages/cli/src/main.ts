#!/usr/bin/env node
// The quadkit command: index, query and join GeoJSON, newline-delimited GeoJSON and CSV files.
import { Command, InvalidArgumentError, Option } from 'commander';
import { runIndex } from './commands/index.js';
import { runJoin } from './commands/join.js';
import { runQuery } from './commands/query.js';
import { CliError } from './errors.js';
import { decimal } from './input.js';
import { STDIN } from './stdin.js';

const program = new Command('quadkit')
  .description(
    'Spatial indexes over GeoJSON, newline-delimited GeoJSON and CSV files (longitude/latitude).',
  )
  .version('0.2.0')
  // Argument errors as the others: one line with the quadkit: prefix, and where help is.
  .configureOutput({
    outputError: (text, write) => write(text.replace(/^error: /, 'quadkit: ')),
  })
  .showHelpAfterError('(quadkit --help, or quadkit COMMAND --help, for the usage)')
  .addHelpText(
    'after',
    `
Examples:
  quadkit index cities.csv -o cities.qk
  quadkit query cities.qk --near 2.2945,48.8584 -k 5
  quadkit query cities.csv --within 135.768,35.0116,25 --format csv
  quadkit query countries.geojson --point 14.42,50.09
  curl -s https://example.com/stops.csv | quadkit query - --within 2.35,48.85,1
  quadkit join cities.csv countries.geojson --count --format csv`,
  );

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

inputOptions(
  program
    .command('index')
    .description('build a static index of a file and save it with its features (FILE.qk)')
    .argument('<file>', 'GeoJSON, newline-delimited GeoJSON or CSV file (- for standard input)')
    .requiredOption('-o, --output <file>', 'the index file to write (conventionally .qk)'),
).action((file: string, options) => runIndex(file, options));

inputOptions(
  program
    .command('query')
    .description('write the features of a file or index that match one query to stdout')
    .argument(
      '<file>',
      'a .qk index, or a GeoJSON, newline-delimited GeoJSON or CSV file (- for standard input)',
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
    .addOption(outputFormat()),
).action((file: string, options, command: Command) => {
  if (options.near === undefined) refuse(command, ['-k', '--max-km'], 'applies only to --near');
  if (file.endsWith('.qk'))
    refuse(
      command,
      ['--input-format', '--lon', '--lat'],
      'does not apply to a .qk index (it holds its features as they were read)',
    );
  return runQuery(file, options);
});

inputOptions(
  program
    .command('join')
    .description('tag each point with the polygon containing it, or count points per polygon')
    .argument('<points>', 'points: GeoJSON, newline-delimited GeoJSON or CSV file (or -)')
    .argument('<polygons>', 'polygons: GeoJSON or newline-delimited GeoJSON file (or -)')
    .option('--count', 'write the polygons with the number of points each contains')
    .option(
      '--property <name>',
      'the polygon property copied onto each point (default: name, else the polygon index)',
    )
    .option(
      '--as <name>',
      'the point property that receives it (default: polygon_ and the property name)',
    )
    .addOption(outputFormat()),
).action((points: string, polygons: string, options, command: Command) => {
  if (points === STDIN && polygons === STDIN)
    throw new CliError('standard input (-) can be read only once: give one of the two files as -');
  if (options.count === true)
    refuse(command, ['--property', '--as'], 'does not apply to --count (it writes point_count)');
  return runJoin(points, polygons, options);
});

// A flag given that the command will not read is refused rather than ignored: `-k 5` with
// `--bbox` means the user expects something the command does not do.
function refuse(command: Command, flags: string[], why: string): void {
  for (const flag of flags) {
    const option = command.options.find((o) => o.long === flag || o.short === flag);
    if (option !== undefined && command.getOptionValueSource(option.attributeName()) === 'cli')
      throw new CliError(`${flag} ${why}`);
  }
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

function positive(value: string): number {
  const n = value.trim() === 'Infinity' ? Number.POSITIVE_INFINITY : decimal(value.trim());
  if (!(n >= 0)) throw new InvalidArgumentError(`expected a distance of 0 or more, got "${value}"`);
  return n;
}

// A reader that stops early (`| head`) closes stdout: the answer is then complete for it.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

try {
  await program.parseAsync();
} catch (e) {
  // Input errors are reported as one line naming the file and place; anything else is a bug
  // and keeps its stack.
  const system = e as NodeJS.ErrnoException;
  if (e instanceof CliError || (e instanceof Error && /^quadkit: /.test(e.message))) {
    process.stderr.write(`quadkit: ${e.message.replace(/^quadkit: /, '')}\n`);
  } else if (
    e instanceof Error &&
    typeof system.code === 'string' &&
    system.syscall !== undefined
  ) {
    // A file the system refused (missing, a directory, no permission): its path and why.
    const path = system.path === undefined ? '' : `${system.path}: `;
    process.stderr.write(`quadkit: ${path}${system.code} (${system.syscall})\n`);
  } else {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  }
  process.exitCode = 1;
}
