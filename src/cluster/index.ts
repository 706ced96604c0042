// quadkit/cluster: point clustering per zoom level for maps, with supercluster's options and
// output.

export { Clusterer, type ClustererSummary, type TileFeature } from './clusterer.js';
export {
  abbreviate,
  type ClusterFeature,
  type ClusterProperties,
  type PointFeature,
} from './features.js';
export type { ClustererOptions, FullOptions } from './input.js';
