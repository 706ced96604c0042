// Which headless Chromium the browser tests drive, and how it is launched.
//
// In order:
// 1. QUADKIT_CHROMIUM=<path>: that binary (an error if it is not there);
// 2. a system Chromium or Chrome (/usr/bin/chromium, ...), unless QUADKIT_CHROMIUM=bundled;
// 3. on Linux x64, the headless Chromium shipped in the @sparticuz/chromium dev dependency,
//    unpacked once into the temporary directory together with the shared libraries it needs
//    (NSS, NSPR, expat) and its fonts, so that it runs on a machine that has only Node and npm.

import { spawnSync } from 'node:child_process';
import {
  accessSync,
  constants,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  statSync,
} from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { brotliDecompress, createBrotliDecompress } from 'node:zlib';
import { type Browser, chromium } from 'playwright-core';

const brotli = promisify(brotliDecompress);

const SYSTEM = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

// Headless, no sandbox (the tests may run as root), no GPU, and nothing that calls home.
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** A Chromium binary and the environment it must be started with. */
export interface ChromiumBinary {
  /** Where the binary came from: the QUADKIT_CHROMIUM path, the system, or the npm package. */
  source: 'QUADKIT_CHROMIUM' | 'system' | 'bundled';
  executablePath: string;
  env: Record<string, string>;
}

/** Finds (and if needed unpacks) the Chromium to drive, in the order given above. */
export async function findChromium(): Promise<ChromiumBinary> {
  const env = process.env as Record<string, string>;
  const chosen = process.env.QUADKIT_CHROMIUM;
  if (chosen !== undefined && chosen !== '' && chosen !== 'bundled') {
    if (!isExecutable(chosen)) {
      throw new Error(
        `QUADKIT_CHROMIUM=${chosen} is not an executable file: unset it to use the Chromium of the ` +
          '@sparticuz/chromium dev dependency, or give the path of a Chromium binary',
      );
    }
    return { source: 'QUADKIT_CHROMIUM', executablePath: chosen, env };
  }
  if (chosen !== 'bundled') {
    const system = SYSTEM.find(isExecutable);
    if (system !== undefined) return { source: 'system', executablePath: system, env };
  }
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `No Chromium found, and the bundled one is for Linux x64 (this is ${process.platform} ` +
        `${process.arch}): install Chrome or Chromium, or set QUADKIT_CHROMIUM to its binary`,
    );
  }
  const dir = await unpackBundled();
  // The libraries' tarball holds lib/ (or al2023/lib/ in older releases of the package).
  const libs = [join(dir, 'libs', 'lib'), join(dir, 'libs', 'al2023', 'lib')].filter((d) =>
    existsSync(d),
  );
  return {
    source: 'bundled',
    executablePath: join(dir, 'chromium'),
    env: {
      ...env,
      LD_LIBRARY_PATH: [...libs, env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
      FONTCONFIG_FILE: join(dir, 'fonts.conf'),
    },
  };
}

// Whether a path is a file this process may execute.
function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Launches the Chromium that {@link findChromium} picks, headless. */
export async function launchChromium(): Promise<{ browser: Browser; binary: ChromiumBinary }> {
  const binary = await findChromium();
  const browser = await chromium.launch({
    executablePath: binary.executablePath,
    env: binary.env,
    headless: true,
    args: ARGS,
  });
  return { browser, binary };
}

// Unpacks the package's brotli-compressed binary and tarballs into <tmp>/quadkit-chromium-<version>
// once (about 200 MB, 2 s), and returns that directory. Each run unpacks into a fresh directory
// and renames it into place when complete, so a run that was stopped halfway, or two runs at
// once, never leave a half-written binary behind.
async function unpackBundled(): Promise<string> {
  // The package's root: the nearest folder above its entry point with its package.json.
  let root = dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium'));
  while (!existsSync(join(root, 'package.json'))) root = dirname(root);
  const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    version: string;
  };
  const dir = join(tmpdir(), `quadkit-chromium-${version}`);
  if (existsSync(join(dir, 'chromium'))) return dir;

  const bin = join(root, 'bin');
  const stage = mkdtempSync(`${dir}-`);
  try {
    // The browser: one brotli-compressed file.
    await pipeline(
      createReadStream(join(bin, 'chromium.br')),
      createBrotliDecompress(),
      createWriteStream(join(stage, 'chromium.part'), { mode: 0o755 }),
    );
    // Its libraries (into libs/) and fonts (fonts/): brotli-compressed tarballs.
    mkdirSync(join(stage, 'libs'));
    await untar(join(bin, 'al2023.tar.br'), join(stage, 'libs'));
    await untar(join(bin, 'fonts.tar.br'), stage);
    // The package's fontconfig file names fixed directories; this one names the unpacked fonts.
    await writeFile(
      join(stage, 'fonts.conf'),
      '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n' +
        `  <dir>${join(dir, 'fonts')}</dir>\n  <dir>/usr/share/fonts</dir>\n` +
        `  <cachedir>${join(dir, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
    );
    renameSync(join(stage, 'chromium.part'), join(stage, 'chromium'));
    try {
      renameSync(stage, dir);
    } catch (error) {
      // Another run finished first: use its copy.
      if (!existsSync(join(dir, 'chromium'))) throw error;
    }
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
  return dir;
}

// Unpacks a .tar.br file: Node's brotli, then `tar -x`.
async function untar(file: string, into: string): Promise<void> {
  const tarball = await brotli(await readFile(file));
  const tar = spawnSync('tar', ['-x', '-C', into], { input: tarball, stdio: 'pipe' });
  if (tar.status !== 0) {
    throw new Error(`tar -x of ${file} failed: ${tar.error?.message ?? tar.stderr.toString()}`);
  }
}
