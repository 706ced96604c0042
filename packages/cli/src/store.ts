// The .qk file: a StaticQuadtree's packed buffer over the features' bounding boxes, followed by
// the features themselves, one JSON text each, with a table of their byte offsets so that a
// query reads only the features it returns.
//
//   bytes 0-7    "QUADKIT\n"
//   bytes 8-11   file format version (uint32, little-endian)
//   bytes 12-15  header length H (uint32)
//   16 .. 16+H   header, JSON: { count, treeBytes, points, source }
//   (padded to 8) the tree buffer (treeBytes)
//   (padded to 8) byte offsets of the features, Float64Array(count + 1), relative to the
//                 feature section
//   the feature section: each feature's JSON followed by "\n"
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { StaticQuadtree } from 'quadkit';
import { CliError, openToRead } from './errors.js';
import type { Feature } from './feature.js';
import { QK_MAGIC, QK_VERSION } from './qk-magic.js';
import { createNow } from './signals.js';

export { QK_MAGIC, QK_VERSION } from './qk-magic.js';

/** What the header of a .qk file says. */
export interface QkHeader {
  /** Number of features. */
  count: number;
  /** Length of the tree buffer in bytes. */
  treeBytes: number;
  /** Whether every feature is a Point (then great-circle queries use the tree directly). */
  points: boolean;
  /** The file the features came from. */
  source: string;
}

const pad8 = (n: number) => (n + 7) & ~7;

/**
 * Where `writeQk` writes an index before renaming it to `path`.
 * @param path - the index file being written.
 */
export function partialPath(path: string): string {
  return `${path}.${process.pid}.partial`;
}

/**
 * Writes a .qk file from a built tree, the offsets of the features and the file that holds their
 * JSON texts back to back (each followed by a newline).
 * @param path - where to write.
 * @param header - the header's fields besides `treeBytes`.
 * @param tree - the index over the features' boxes, item i being feature i.
 * @param offsets - Float64Array(count + 1) of byte offsets into `featureFile`.
 * @param featureFile - the path of the features' JSON texts.
 */
export async function writeQk(
  path: string,
  header: Omit<QkHeader, 'treeBytes'>,
  tree: StaticQuadtree<number>,
  offsets: Float64Array,
  featureFile: string,
): Promise<void> {
  const treeBuffer = new Uint8Array(tree.toBuffer());
  const json = Buffer.from(JSON.stringify({ ...header, treeBytes: treeBuffer.byteLength }));
  const head = Buffer.alloc(16);
  QK_MAGIC.copy(head, 0);
  head.writeUInt32LE(QK_VERSION, 8);
  head.writeUInt32LE(json.length, 12);
  // Written beside the target and renamed over it at the end: an interrupted or failed write
  // leaves the old file (if any) whole, never a truncated index.
  const partial = partialPath(path);
  createNow(partial);
  const out = await open(partial, 'r+');
  let done = false;
  try {
    let position = 0;
    const write = async (bytes: Uint8Array) => {
      await out.write(bytes, 0, bytes.byteLength, position);
      position += bytes.byteLength;
    };
    await write(head);
    await write(json);
    await write(new Uint8Array(pad8(position) - position));
    await write(treeBuffer);
    await write(new Uint8Array(pad8(position) - position));
    await write(new Uint8Array(offsets.buffer, offsets.byteOffset, offsets.byteLength));
    // The feature section is copied in blocks, never whole.
    const features = await open(featureFile, 'r');
    try {
      const block = Buffer.alloc(1 << 20);
      for (let at = 0; ; ) {
        const { bytesRead } = await features.read(block, 0, block.length, at);
        if (bytesRead === 0) break;
        await write(block.subarray(0, bytesRead));
        at += bytesRead;
      }
    } finally {
      await features.close();
    }
    done = true;
  } finally {
    await out.close();
    if (!done) await rm(partial, { force: true });
  }
  try {
    await rename(partial, path);
  } catch (e) {
    await rm(partial, { force: true });
    throw new CliError(
      `${path}: cannot write the index there (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}

/** Bytes read at once for a run of consecutive features. */
const RUN_BYTES = 4 << 20;

/** An open .qk file: its tree in memory, its features read on demand. */
export class QkFile {
  private constructor(
    readonly path: string,
    readonly header: QkHeader,
    readonly tree: StaticQuadtree<number>,
    private readonly offsets: Float64Array,
    private readonly base: number,
    private readonly handle: FileHandle,
  ) {}

  /**
   * Opens a .qk file, checking its layout against the file's size before reading anything else.
   * @param path - the file.
   */
  static async open(path: string): Promise<QkFile> {
    const handle = await openToRead(path);
    try {
      const { size } = await handle.stat();
      const bad = (what: string) =>
        new CliError(`${path}: not a quadkit index file, or a damaged one (${what})`);
      const read = async (position: number, length: number) => {
        if (position + length > size) throw bad('it is shorter than its header says');
        const bytes = new Uint8Array(length);
        await handle.read(bytes, 0, length, position);
        return bytes;
      };
      const head = Buffer.from(await read(0, 16));
      if (!head.subarray(0, 8).equals(QK_MAGIC)) throw bad('no QUADKIT signature');
      const version = head.readUInt32LE(8);
      if (version !== QK_VERSION)
        throw new CliError(
          `${path}: index file version ${version}, this command reads version ${QK_VERSION}: ` +
            'build the index again with `quadkit index`',
        );
      let header: QkHeader;
      try {
        header = JSON.parse(Buffer.from(await read(16, head.readUInt32LE(12))).toString('utf8'));
      } catch (e) {
        if (e instanceof CliError) throw e;
        throw bad('its header is not JSON');
      }
      const { count, treeBytes } = header;
      if (!Number.isSafeInteger(count) || count < 0) throw bad(`count ${count}`);
      if (!Number.isSafeInteger(treeBytes) || treeBytes < 0) throw bad(`treeBytes ${treeBytes}`);
      const treeAt = pad8(16 + head.readUInt32LE(12));
      const offsetsAt = pad8(treeAt + treeBytes);
      const base = offsetsAt + 8 * (count + 1);
      const treeBuffer = (await read(treeAt, treeBytes)).buffer as ArrayBuffer;
      const offsets = new Float64Array((await read(offsetsAt, 8 * (count + 1))).buffer);
      for (let i = 0; i < count; i++)
        if (!(offsets[i]! <= offsets[i + 1]!)) throw bad(`feature offsets out of order at ${i}`);
      if (count > 0 && (offsets[0] !== 0 || base + offsets[count]! !== size))
        throw bad('its feature section does not end where the file ends');
      let tree: StaticQuadtree<number>;
      try {
        tree = StaticQuadtree.fromBuffer(treeBuffer);
      } catch (e) {
        throw bad((e as Error).message);
      }
      if (tree.size !== count) throw bad(`the tree holds ${tree.size} items, the header ${count}`);
      return new QkFile(path, header, tree, offsets, base, handle);
    } catch (e) {
      await handle.close();
      throw e;
    }
  }

  /**
   * Reads feature i from the file.
   * @param i - the feature's index (the tree's item index).
   */
  async feature(i: number): Promise<Feature> {
    const start = this.offsets[i]!;
    const length = this.offsets[i + 1]! - start;
    const bytes = Buffer.alloc(length);
    await this.handle.read(bytes, 0, length, this.base + start);
    return JSON.parse(bytes.toString('utf8')) as Feature;
  }

  /**
   * Reads the features of `indices` (ascending) from the file, each run of consecutive indices
   * in one read of at most a few megabytes (a whole-world box over the cities: 135k reads
   * before).
   * @param indices - the features' indices, ascending.
   */
  async features(indices: readonly number[]): Promise<Feature[]> {
    const { offsets, base, handle } = this;
    const out: Feature[] = [];
    for (let r = 0; r < indices.length; ) {
      // The run [r, e): consecutive indices, up to RUN_BYTES (or one feature, however large).
      let e = r + 1;
      const from = offsets[indices[r]!]!;
      while (
        e < indices.length &&
        indices[e] === indices[e - 1]! + 1 &&
        offsets[indices[e]! + 1]! - from <= RUN_BYTES
      )
        e++;
      const to = offsets[indices[e - 1]! + 1]!;
      const bytes = Buffer.alloc(to - from);
      await handle.read(bytes, 0, bytes.length, base + from);
      for (let k = r; k < e; k++) {
        const i = indices[k]!;
        const text = bytes.toString('utf8', offsets[i]! - from, offsets[i + 1]! - from);
        out.push(JSON.parse(text) as Feature);
      }
      r = e;
    }
    return out;
  }

  /** Closes the file. */
  close(): Promise<void> {
    return this.handle.close();
  }
}
