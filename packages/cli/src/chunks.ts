// The bytes of an open file in chunks, the next one read while the last one is used.
import type { FileHandle } from 'node:fs/promises';

/**
 * The chunks of an open file from `from` to its end, each in a buffer of its own (never reused),
 * the next read ahead while the caller works on the last.
 * @param handle - the open file.
 * @param size - the size of a read.
 * @param from - the byte to start at.
 */
export async function* chunksOf(
  handle: FileHandle,
  size: number,
  from = 0,
): AsyncGenerator<Buffer> {
  const read = (at: number) => {
    const buffer = Buffer.allocUnsafe(size);
    return handle.read(buffer, 0, size, at).then(({ bytesRead }) => buffer.subarray(0, bytesRead));
  };
  let next = read(from);
  try {
    for (let at = from; ; ) {
      const chunk = await next;
      if (chunk.length === 0) return;
      at += chunk.length;
      next = read(at);
      yield chunk;
    }
  } finally {
    // (Not left reading when the caller closes the file.)
    await next.catch(() => undefined);
  }
}
