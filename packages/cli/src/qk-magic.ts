// How a .qk file begins (see store.ts): in a module of its own, so that the readers of data files
// can recognise an index without loading the library's packed tree.

/** The first bytes of a .qk file. */
export const QK_MAGIC = Buffer.from('QUADKIT\n', 'latin1');
/** The version of the .qk layout this command writes and reads. */
export const QK_VERSION = 1;
