// quadkit index FILE -o FILE.qk|.fgb|.parquet: streams the features, writes their JSON texts to a
// scratch file as they come with their boxes in a growing Float64Array, then writes the output
// its extension names: a StaticQuadtree packed over the boxes in a .qk file, a FlatGeobuf file
// with its packed R-tree (fgb-write.ts), or GeoParquet (parquet.ts).
import { constants, rmSync } from 'node:fs';
import { access, open, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { StaticQuadtree } from 'quadkit';
import { CliError } from '../errors.js';
import { Columns, type Geometry, hasHeight } from '../gathered.js';
import { batches, type InputFlags, readWithProgress } from '../input.js';
import type { Io } from '../io.js';
import { checkBatch, featureBox } from '../shapes.js';
import { createNow, scratchFolder } from '../signals.js';
import { displayName, STDIN, STDIN_NAME } from '../stdin.js';
import { partialPath, writeQk } from '../store.js';

/** Options of `quadkit index`. */
export interface IndexOptions extends InputFlags {
  output: string;
  /** The zoom of the quadkey column of a GeoParquet output. */
  zoom: number;
  /** Rows per row group of a GeoParquet output. */
  rowGroup: number;
}

/**
 * Builds the index of a file and writes it with its features.
 * @param file - the input file.
 * @param options - the command's options.
 * @param io - what `-` reads; standard error for the progress bar and the closing line.
 */
export async function runIndex(file: string, options: IndexOptions, io: Io): Promise<void> {
  // The output checked before the input is read: a file (not standard output), not the input
  // itself, in a writable folder.
  if (options.output === STDIN)
    throw new CliError(
      '-o -: an index is a binary file, not written to standard output; give -o a file name (out.qk)',
    );
  // The output's format by its extension: .fgb, .parquet, else a .qk index.
  const format = extname(options.output).toLowerCase();
  if (file !== STDIN && resolve(options.output) === resolve(file))
    throw new CliError(
      `${options.output}: the output would overwrite the input; choose another -o`,
    );
  try {
    await access(dirname(resolve(options.output)), constants.W_OK);
    const target = await stat(options.output).catch(() => null);
    if (target?.isDirectory()) throw Object.assign(new Error('a directory'), { code: 'EISDIR' });
  } catch (e) {
    throw new CliError(
      `${options.output}: cannot write there (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  // Interrupted, it leaves neither its scratch folder nor a partial index behind.
  const scratch = scratchFolder('quadkit-', () =>
    rmSync(partialPath(options.output), { force: true }),
  );
  try {
    const featureFile = join(scratch.path, 'features.ndjson');
    createNow(featureFile);
    const out = await open(featureFile, 'r+');
    let boxes: Float64Array = new Float64Array(4 * 1024);
    let offsets: Float64Array = new Float64Array(1024 + 1);
    let count = 0;
    let bytes = 0;
    let points = true;
    const columns = new Columns();
    const geometryTypes = new Set<string>();
    let hasZ = false;
    try {
      const source = readWithProgress(file, options, 'indexing', io);
      for await (const { features, places } of batches(source)) {
        // Each batch is checked by the library before any of it is written.
        checkBatch(features, places);
        let text = '';
        for (let i = 0; i < features.length; i++) {
          const feature = features[i]!;
          if (4 * count + 4 > boxes.length) boxes = grow(boxes);
          if (count + 2 > offsets.length) offsets = grow(offsets);
          boxes.set(featureBox(feature, places[i]!), 4 * count);
          if (feature.geometry?.type !== 'Point') points = false;
          geometryTypes.add(feature.geometry!.type);
          if (!hasZ) hasZ = hasHeight(feature.geometry as Geometry);
          columns.observe(feature.properties);
          const json = `${JSON.stringify(feature)}\n`;
          text += json;
          bytes += Buffer.byteLength(json);
          count++;
          offsets[count] = bytes;
        }
        await out.write(text);
      }
    } finally {
      await out.close();
    }
    const gathered = {
      count,
      boxes: boxes.subarray(0, 4 * count),
      offsets: offsets.subarray(0, count + 1),
      featureFile,
      columns,
      geometryTypes,
      hasZ,
    };
    const partial = partialPath(options.output);
    if (format === '.fgb') {
      const { writeFgb } = await import('../fgb-write.js');
      await writeFgb(options.output, gathered, partial);
    } else if (format === '.parquet') {
      const { writeParquet } = await import('../parquet.js');
      await writeParquet(options.output, gathered, options, partial);
    } else
      await writeQk(
        options.output,
        {
          count,
          points: points && count > 0,
          source: file === STDIN ? STDIN_NAME : basename(file),
        },
        StaticQuadtree.fromBoxes(gathered.boxes),
        gathered.offsets,
        featureFile,
      );
    if (!options.quiet)
      io.stderr.write(
        `quadkit: indexed ${count} features of ${displayName(file)} in ${options.output}\n`,
      );
  } finally {
    scratch.remove();
  }
}

function grow(array: Float64Array): Float64Array {
  const bigger = new Float64Array(array.length * 2);
  bigger.set(array);
  return bigger;
}
