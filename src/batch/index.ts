// quadkit/batch: batches of queries on a StaticQuadtree, spread over worker threads (Node
// worker_threads or Web Workers) that share its buffer.

export {
  type AsyncDisposal,
  BatchPool,
  type BatchPoolOptions,
  type BatchPoolState,
  type BatchSource,
} from './pool.js';
export { BatchResult, type BatchStats, PairsResult } from './result.js';
export type { UrlLike } from './runtime.js';
