// quadkit sample [FOLDER]: writes the sample files the help's examples read (a few thousand of
// the world's cities as CSV, the world's countries as GeoJSON), shipped in the package's data/.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CliError } from '../errors.js';
import type { Io } from '../io.js';
import { DATA, SAMPLES } from '../samples.js';

/** Options of `quadkit sample`. */
export interface SampleOptions {
  quiet?: boolean;
}

/**
 * Writes the sample files into a folder (made if missing). A file already there with the same
 * content is left as it is; one with other content is an error, and nothing is written.
 * @param folder - where to write them.
 * @param options - the command's options.
 * @param io - standard error, for the line naming each file written.
 */
export async function runSample(folder: string, options: SampleOptions, io: Io): Promise<void> {
  const files = await Promise.all(
    SAMPLES.map(async (s) => ({ ...s, text: await readFile(new URL(s.name, DATA)) })),
  );
  try {
    await mkdir(folder, { recursive: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(
      code === 'EEXIST' || code === 'ENOTDIR'
        ? `${folder}: not a folder (a file of that name is in the way); give a folder`
        : `${folder}: cannot make the folder there (${code ?? 'error'})`,
    );
  }
  // Every target checked before any is written.
  const todo: typeof files = [];
  for (const file of files) {
    const path = join(folder, file.name);
    const there = await readFile(path).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return null;
      throw new CliError(`${path}: cannot read what is there (${e.code ?? 'error'})`);
    });
    if (there === null) todo.push(file);
    else if (!there.equals(file.text))
      throw new CliError(
        `${path}: a different file of that name is already there; move it, or write the samples to another folder (quadkit sample FOLDER)`,
      );
  }
  for (const file of todo) {
    const path = join(folder, file.name);
    try {
      await writeFile(path, file.text, { flag: 'wx' });
    } catch (e) {
      throw new CliError(
        `${path}: cannot write there (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
  }
  if (!options.quiet)
    for (const file of files)
      io.stderr.write(
        todo.includes(file)
          ? `quadkit: wrote ${join(folder, file.name)}: ${file.what}\n`
          : `quadkit: ${join(folder, file.name)} is already the sample: ${file.what}\n`,
      );
}
