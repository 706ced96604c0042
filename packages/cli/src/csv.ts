// The records of a CSV file (RFC 4180: fields between one delimiter, quoted with '"' where they
// hold one, a quote or a line break, a quote doubled inside quotes), read chunk by chunk: a line
// without quotes is split whole, a line with quotes field by field. White space around a field is
// dropped; empty lines are skipped; lines end in '\n', '\r\n' or a lone '\r' (old Mac files).
import { isAscii } from 'node:buffer';
import { chunksOf } from './chunks.js';
import { CliError, openToRead } from './errors.js';

/** The records a chunk of a file completed: `records[i]` ends on line `lines[i]` (from 1). */
export interface Records {
  /** The records' fields. */
  records: string[][];
  /** The line on which each record ends (a quoted field may span lines). */
  lines: number[];
  /** The byte offset just after the last of them. */
  end: number;
}

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const isSpace = (c: number) => c === 0x20 || c === 0x09;

// The line breaks in text [from, to): '\n', '\r\n' and a lone '\r' count one each.
function breaks(text: string, from: number, to: number): number {
  let n = 0;
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (c === LF || (c === CR && text.charCodeAt(k + 1) !== LF)) n++;
  }
  return n;
}

// The end of the last line break in bytes (0: none). A '\r' that ends the bytes is left out: its
// '\n' may open the next chunk.
function lastBreak(bytes: Buffer): number {
  const lf = bytes.lastIndexOf(LF);
  const cr = bytes.length < 2 ? -1 : bytes.lastIndexOf(CR, -2);
  return Math.max(lf, cr) + 1;
}

// Bytes [from, to) as text: ASCII (the most common) copied as is, quicker than decoding UTF-8.
function decode(bytes: Buffer, from: number, to: number): string {
  return bytes.toString(isAscii(bytes.subarray(from, to)) ? 'latin1' : 'utf8', from, to);
}

// A field without the white space around it.
function trimmed(field: string): string {
  const n = field.length;
  if (n === 0) return field;
  return field.charCodeAt(0) <= 0x20 || field.charCodeAt(n - 1) <= 0x20 ? field.trim() : field;
}

/**
 * The records of a CSV file, a chunk's worth at a time (a byte order mark at its start dropped).
 * @param file - the file's path (and its name in messages).
 * @param delimiter - the field delimiter, one character.
 * @param chunk - the size of a read (default 64 KiB: the text decoded from a read stays under
 *   128 KiB, which V8 would put in pages of its own, fresh from the system each time).
 */
export async function* splitCsv(
  file: string,
  delimiter: string,
  chunk = 1 << 16,
): AsyncGenerator<Records> {
  const handle = await openToRead(file);
  const chunks = chunksOf(handle, chunk);
  const separator = delimiter.charCodeAt(0);
  let line = 1; // the line at `at` in `text`
  const fail = (message: string, where = line) => new CliError(`${file}:${where}: ${message}`);
  try {
    let text = ''; // decoded text not yet cut into records
    let tail: Buffer = Buffer.alloc(0); // bytes after the last line break read (a line not yet whole)
    let offset = 0; // bytes read
    let bom = true; // a byte order mark may still come
    for (;;) {
      const next = await chunks.next();
      const buffer = next.done ? Buffer.alloc(0) : next.value;
      const bytesRead = buffer.length;
      offset += bytesRead;
      const atEnd = bytesRead === 0;
      const bytes =
        tail.length > 0
          ? Buffer.concat([tail, buffer.subarray(0, bytesRead)])
          : buffer.subarray(0, bytesRead);
      // Decoded up to the last line break (never in the middle of a character); the rest waits.
      const cut = atEnd ? bytes.length : lastBreak(bytes);
      tail = bytes.subarray(cut);
      text = text.length > 0 ? text + decode(bytes, 0, cut) : decode(bytes, 0, cut);
      if (bom && text.length > 0) {
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        bom = false;
      }
      const out: Records = { records: [], lines: [], end: offset - tail.length };
      let at = 0;
      const n = text.length;
      let quote = text.indexOf('"'); // the next quote at or after `at`, or -1
      let cr = text.indexOf('\r'); // the next '\r' at or after `at`, or -1
      let sep = -1; // the next delimiter at or after the field being cut (n: none left)
      while (at < n) {
        let nl = text.indexOf('\n', at);
        if (cr >= 0 && cr < at) cr = text.indexOf('\r', at);
        // A lone '\r' before the next '\n' ends the line there.
        if (cr >= 0 && (nl < 0 || cr < nl - 1)) nl = cr;
        if (nl < 0) {
          if (!atEnd) break;
          nl = n;
        }
        if (quote >= 0 && quote < at) quote = text.indexOf('"', at);
        if (quote < 0 || quote > nl) {
          // A line without quotes, split whole.
          const end = nl > at && text.charCodeAt(nl - 1) === CR ? nl - 1 : nl;
          if (end > at) {
            const fields: string[] = [];
            for (let from = at; ; ) {
              if (sep < from) {
                sep = text.indexOf(delimiter, from);
                if (sep < 0) sep = n;
              }
              const to = sep > end ? end : sep;
              fields.push(trimmed(text.slice(from, to)));
              if (to === end) break;
              from = to + 1;
            }
            out.records.push(fields);
            out.lines.push(line);
          }
          line++;
          at = nl + 1;
          continue;
        }
        // A record with quotes, field by field; it may span lines.
        const fields: string[] = [];
        let i = at;
        let lines = 0;
        let whole = true;
        for (;;) {
          while (i < n && isSpace(text.charCodeAt(i))) i++;
          if (text.charCodeAt(i) === QUOTE) {
            let value = '';
            let j = i + 1;
            for (;;) {
              const q = text.indexOf('"', j);
              if (q < 0) {
                whole = false;
                break;
              }
              value += text.slice(j, q);
              if (text.charCodeAt(q + 1) === QUOTE) {
                value += '"';
                j = q + 2;
              } else {
                j = q + 1;
                break;
              }
            }
            if (!whole) break;
            lines += breaks(text, i + 1, j);
            i = j;
            while (i < n && isSpace(text.charCodeAt(i))) i++;
            const c = text.charCodeAt(i);
            if (i < n && c !== separator && c !== LF && c !== CR)
              throw fail(
                `text after the closing quote of field ${fields.length + 1} (a quote inside a quoted field is doubled: "")`,
                line + lines,
              );
            fields.push(value);
          } else {
            let j = i;
            while (j < n) {
              const c = text.charCodeAt(j);
              if (c === separator || c === LF || c === CR) break;
              if (c === QUOTE)
                throw fail(
                  `a quote inside field ${fields.length + 1}, which is not quoted (quote the whole field, doubling its quotes)`,
                );
              j++;
            }
            fields.push(trimmed(text.slice(i, j)));
            i = j;
          }
          if (i >= n) {
            whole = atEnd;
            break;
          }
          if (text.charCodeAt(i) === separator) {
            i++;
            continue;
          }
          // The line break: '\n', '\r\n' or a lone '\r'.
          if (text.charCodeAt(i) === CR && text.charCodeAt(i + 1) === LF) i++;
          i++;
          break;
        }
        if (!whole) {
          if (atEnd) throw fail('a quoted field is not closed at the end of the file');
          break; // the record's end is in a chunk to come
        }
        line += lines;
        out.records.push(fields);
        out.lines.push(line);
        line++;
        at = i;
      }
      text = text.slice(at);
      out.end -= Buffer.byteLength(text);
      if (out.records.length > 0) yield out;
      if (atEnd) return;
    }
  } finally {
    await chunks.return(undefined);
    await handle.close();
  }
}
