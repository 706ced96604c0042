// The only code that differs between Node and browsers: how a batch worker is started, how the
// pool talks to it, and how the worker script hears the pool. Browsers have Web Workers
// (`new Worker(url, { type: 'module' })`, `onmessage`); Node has worker_threads
// (`new Worker(url)`, `on('message')`, `parentPort`). node:worker_threads is imported
// dynamically, by a name kept in a variable, so that bundlers for the browser leave it alone
// and the entry point has no runtime dependency.

/** A started worker, as the pool sees it. */
export interface WorkerPort {
  /** Sends a message (SharedArrayBuffers are shared, not copied). */
  post(message: unknown): void;
  /** Calls `onFailure` once if the worker fails: an uncaught error, or an exit not asked for. */
  listen(onMessage: (data: unknown) => void, onFailure: (error: unknown) => void): void;
  /** Whether the worker keeps a Node process alive (only while a batch runs); no-op elsewhere. */
  hold(busy: boolean): void;
  /** Stops the worker; resolves once it has stopped. */
  terminate(): Promise<void>;
}

/** A reply of a worker script: the message and the buffers to transfer with it. */
export interface Reply {
  message: unknown;
  transfer: ArrayBuffer[];
}

// The parts of the two Worker APIs used here.
interface NodeWorker {
  on(event: string, listener: (value: never) => void): void;
  postMessage(message: unknown): void;
  ref(): void;
  unref(): void;
  terminate(): Promise<number>;
}
interface NodeThreads {
  Worker: new (url: UrlLike, options: { execArgv: string[] }) => NodeWorker;
  parentPort: {
    on(event: 'message', listener: (data: unknown) => void): void;
    postMessage(message: unknown, transfer: ArrayBuffer[]): void;
  } | null;
}
interface WebWorker {
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: { message?: string; preventDefault(): void }) => void) | null;
  onmessageerror: ((event: unknown) => void) | null;
  postMessage(message: unknown): void;
  terminate(): void;
}
type WebWorkerClass = new (url: UrlLike, options: { type: 'module' }) => WebWorker;
interface WebWorkerScope {
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown, transfer: ArrayBuffer[]): void;
}

/** A URL object (the build's lib, ES2022 without DOM or Node, has no URL type) or string. */
export type UrlLike =
  | string
  | {
      /** The URL as a string. */
      readonly href: string;
    };

const NODE_THREADS = 'node:worker_threads';
const NODE_OS = 'node:os';

function webWorkerClass(): WebWorkerClass | undefined {
  const W = (globalThis as { Worker?: WebWorkerClass }).Worker;
  return typeof W === 'function' ? W : undefined;
}

async function nodeThreads(): Promise<NodeThreads> {
  return (await import(/* @vite-ignore */ NODE_THREADS)) as NodeThreads;
}

/** The number of logical cores, or 2 when the runtime does not say. */
export async function cores(): Promise<number> {
  const nav = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator;
  if (typeof nav?.hardwareConcurrency === 'number') return nav.hardwareConcurrency;
  try {
    const os = (await import(/* @vite-ignore */ NODE_OS)) as { availableParallelism(): number };
    return os.availableParallelism();
  } catch {
    return 2;
  }
}

/**
 * Starts the worker script at `url`: a module Web Worker where the runtime has them, else a
 * Node worker thread (a `file:` URL string is read as a URL, any other string as a path).
 */
export async function spawn(url: UrlLike): Promise<WorkerPort> {
  const Web = webWorkerClass();
  if (Web !== undefined) return webPort(new Web(url, { type: 'module' }));
  const { Worker } = await nodeThreads();
  const { URL, process } = globalThis as unknown as {
    URL: new (url: string) => UrlLike;
    process: { execArgv: string[] };
  };
  // The worker inherits Node's flags, except --input-type (of `node -e`), which it refuses.
  const execArgv = process.execArgv.filter(
    (flag, i, all) => !flag.startsWith('--input-type') && all[i - 1] !== '--input-type',
  );
  const where = typeof url === 'string' && url.startsWith('file:') ? new URL(url) : url;
  return nodePort(new Worker(where, { execArgv }));
}

// A worker's failures, passed to the pool's handler once it listens: a script that fails to
// load may report before that. Only the first failure counts.
function failures(): { report(error: unknown): void; listen(handler: (e: unknown) => void): void } {
  let handler: ((error: unknown) => void) | null = null;
  let early: { error: unknown } | null = null;
  return {
    report(error) {
      if (handler !== null) handler(error);
      else early ??= { error };
    },
    listen(h) {
      handler = h;
      if (early !== null) h(early.error);
    },
  };
}

function nodePort(worker: NodeWorker): WorkerPort {
  let stopping = false;
  const failed = failures();
  worker.on('messageerror', failed.report);
  worker.on('error', failed.report);
  worker.on('exit', (code: number) => {
    if (!stopping) failed.report(new Error(`quadkit: a batch worker exited with code ${code}`));
  });
  return {
    post: (message) => worker.postMessage(message),
    listen(onMessage, onFailure) {
      worker.on('message', onMessage);
      failed.listen(onFailure);
    },
    hold: (busy) => (busy ? worker.ref() : worker.unref()),
    async terminate() {
      stopping = true;
      await worker.terminate();
    },
  };
}

function webPort(worker: WebWorker): WorkerPort {
  const failed = failures();
  worker.onmessageerror = () =>
    failed.report(new Error('quadkit: a batch worker sent a message that could not be read'));
  worker.onerror = (event) => {
    event.preventDefault();
    failed.report(new Error(event.message ?? 'quadkit: a batch worker failed to load or run'));
  };
  return {
    post: (message) => worker.postMessage(message),
    listen(onMessage, onFailure) {
      worker.onmessage = (event) => onMessage(event.data);
      failed.listen(onFailure);
    },
    hold: () => {},
    async terminate() {
      worker.terminate();
    },
  };
}

/**
 * In a worker script: answers every message from the pool with `answer(message)`. When it
 * throws, the error itself is sent back (as `{ type: 'error', error }`), for the pool to reject
 * the batch with it.
 */
export async function serve(answer: (message: unknown) => Reply): Promise<void> {
  let post: (message: unknown, transfer: ArrayBuffer[]) => void;
  let listen: (handler: (data: unknown) => void) => void;
  if ('WorkerGlobalScope' in globalThis) {
    const scope = globalThis as unknown as WebWorkerScope;
    post = (message, transfer) => scope.postMessage(message, transfer);
    listen = (handler) => scope.addEventListener('message', (event) => handler(event.data));
  } else {
    const { parentPort } = await nodeThreads();
    if (parentPort === null) throw new Error('quadkit: the batch worker script runs in a worker');
    post = (message, transfer) => parentPort.postMessage(message, transfer);
    listen = (handler) => parentPort.on('message', handler);
  }
  listen((data) => {
    let reply: Reply;
    try {
      reply = answer(data);
    } catch (error) {
      reply = { message: { type: 'error', error }, transfer: [] };
    }
    try {
      post(reply.message, reply.transfer);
    } catch (e) {
      // An error that cannot be cloned (a class with functions in it) is sent as its text.
      const { error } = reply.message as { error?: unknown };
      const text = String(error ?? e);
      post({ type: 'error', error: new Error(text) }, []);
    }
  });
}
