// The lines of a text file, cut from its bytes chunk by chunk at each '\n' (a '\r' before it is
// left to the reader, as JSON's white space), with their numbers: quicker than a line reader over
// decoded text, and in memory bounded by the longest line. The lines of a chunk of ASCII (the
// most common) are copied as latin1, quicker than decoding UTF-8.
import { isAscii } from 'node:buffer';
import { chunksOf } from './chunks.js';
import { openToRead } from './errors.js';
import { decode, HEAP_MAX } from './json-bytes.js';

// The most bytes of ASCII lines decoded into one text (V8 puts a string over 128 KiB in pages of
// its own, fresh from the system each time: slower to make).
const PIECE = 1 << 16;

/** The lines a chunk of a file completed: `texts[i]` is line number `numbers[i]` (from 1). */
export interface Lines {
  /**
   * The lines' texts, without their '\n'; a line longer than HEAP_MAX bytes as its bytes (to be
   * parsed in pieces: see json-pieces.ts).
   */
  texts: (string | Uint8Array)[];
  /** Their numbers. */
  numbers: number[];
  /** The byte offset just after the last of them. */
  end: number;
}

/**
 * The lines of a file that hold more than white space, a chunk's worth at a time; a byte order
 * mark at its start is dropped.
 * @param file - the file's path.
 * @param chunk - the size of a read (default 256 KiB).
 * @param piece - the most bytes of ASCII lines decoded into one text (default 64 KiB).
 */
export async function* splitLines(
  file: string,
  chunk = 1 << 18,
  piece = PIECE,
): AsyncGenerator<Lines> {
  const handle = await openToRead(file);
  const chunks = chunksOf(handle, chunk);
  try {
    let carry: Buffer[] = [];
    let line = 1;
    let at = 0;
    for (;;) {
      const next = await chunks.next();
      const buffer = next.done ? Buffer.alloc(0) : next.value;
      const bytesRead = buffer.length;
      const out: Lines = { texts: [], numbers: [], end: at };
      const take = (bytes: Buffer, from: number, to: number) => {
        // (A byte order mark before the first line, as JSON.parse refuses it.)
        if (
          line === 1 &&
          bytes[from] === 0xef &&
          bytes[from + 1] === 0xbb &&
          bytes[from + 2] === 0xbf
        )
          from += 3;
        if (!blank(bytes, from, to)) {
          out.texts.push(to - from > HEAP_MAX ? bytes.subarray(from, to) : decode(bytes, from, to));
          out.numbers.push(line);
        }
        line++;
      };
      if (bytesRead === 0) {
        const rest = Buffer.concat(carry);
        if (rest.length > 0) take(rest, 0, rest.length);
        out.end = at;
        if (out.texts.length > 0) yield out;
        return;
      }
      const bytes = buffer.subarray(0, bytesRead);
      let from = 0;
      // The line begun in earlier chunks, if it ends in this one.
      if (carry.length > 0) {
        const nl = bytes.indexOf(10);
        if (nl >= 0) {
          const whole = Buffer.concat([...carry, bytes.subarray(0, nl)]);
          carry = [];
          take(whole, 0, whole.length);
          from = nl + 1;
          out.end = at + from;
        } else {
          carry.push(bytes);
          from = bytesRead;
        }
      }
      if (from < bytesRead && isAscii(bytes.subarray(from))) {
        // ASCII: the lines of up to `piece` bytes copied in one text as latin1 (its offsets those
        // of the bytes, and quicker than decoding UTF-8), then cut from it: a copy per line is a
        // call into Node per line.
        for (;;) {
          const last = bytes.lastIndexOf(10, Math.min(from + piece, bytesRead - 1));
          if (last < from) {
            // A line longer than a piece, taken alone.
            const nl = bytes.indexOf(10, from);
            if (nl < 0) break;
            take(bytes, from, nl);
            from = nl + 1;
            out.end = at + from;
            continue;
          }
          const text = bytes.toString('latin1', from, last + 1);
          for (let f = 0, nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', f)) {
            if (!blank(bytes, from + f, from + nl)) {
              out.texts.push(text.slice(f, nl));
              out.numbers.push(line);
            }
            line++;
            f = nl + 1;
          }
          from = last + 1;
          out.end = at + from;
        }
      } else {
        for (let nl = bytes.indexOf(10, from); nl >= 0; nl = bytes.indexOf(10, from)) {
          take(bytes, from, nl);
          from = nl + 1;
          out.end = at + from;
        }
      }
      if (from < bytesRead) carry.push(bytes.subarray(from));
      at += bytesRead;
      if (out.texts.length > 0) yield out;
    }
  } finally {
    await chunks.return(undefined);
    await handle.close();
  }
}

/** The lines a chunk of a file completed, as bytes: line k is `bytes` [starts[k], ends[k]). */
export interface LineBytes {
  /** The bytes that hold the lines. */
  bytes: Buffer;
  /** Where each line starts (after a byte order mark on the first). */
  starts: number[];
  /** Where each ends (its '\n', or the end of the bytes). */
  ends: number[];
  /** Their numbers. */
  numbers: number[];
  /** The byte offset in the file just after the last of them. */
  end: number;
}

/**
 * The lines of a file that hold more than white space as {@link splitLines} finds them, as
 * bytes, not decoded.
 * @param file - the file's path.
 * @param chunk - the size of a read (default 256 KiB).
 */
export async function* splitLineBytes(file: string, chunk = 1 << 18): AsyncGenerator<LineBytes> {
  const handle = await openToRead(file);
  const chunks = chunksOf(handle, chunk);
  try {
    let carry: Buffer[] = [];
    let line = 1;
    let at = 0; // bytes read
    for (;;) {
      const next = await chunks.next();
      const buffer = next.done ? Buffer.alloc(0) : next.value;
      // The line begun in earlier chunks goes first.
      const bytes = carry.length > 0 ? Buffer.concat([...carry, buffer]) : buffer;
      const origin = at - (bytes.length - buffer.length); // the file offset of bytes[0]
      carry = [];
      at += buffer.length;
      const out: LineBytes = { bytes, starts: [], ends: [], numbers: [], end: origin };
      const take = (from: number, to: number) => {
        // (A byte order mark before the first line, as JSON.parse refuses it.)
        if (
          line === 1 &&
          bytes[from] === 0xef &&
          bytes[from + 1] === 0xbb &&
          bytes[from + 2] === 0xbf
        )
          from += 3;
        if (!blank(bytes, from, to)) {
          out.starts.push(from);
          out.ends.push(to);
          out.numbers.push(line);
        }
        line++;
      };
      let from = 0;
      for (let nl = bytes.indexOf(10); nl >= 0; nl = bytes.indexOf(10, from)) {
        take(from, nl);
        from = nl + 1;
      }
      out.end = origin + from;
      if (buffer.length === 0) {
        if (from < bytes.length) take(from, bytes.length);
        out.end = at;
      } else if (from < bytes.length) carry.push(bytes.subarray(from));
      if (out.starts.length > 0) yield out;
      if (buffer.length === 0) return;
    }
  } finally {
    await chunks.return(undefined);
    await handle.close();
  }
}

// Whether bytes [from, to) are all white space (a line to skip).
function blank(bytes: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = bytes[i]!;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}
