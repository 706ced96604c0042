// quadkit/geo: great-circle queries, GeoJSON features and map tiles over quadkit's indexes.

export { type Areal, cutAtAntimeridian, type Ring } from './antimeridian.js';
export {
  type FeatureFilter,
  type FeatureHit,
  GeoIndex,
  type GeoIndexOptions,
  type GeoIndexSummary,
} from './geo-index.js';
export type { Feature, FeatureCollection, GeoInput, Geometry, Position } from './geojson.js';
export {
  EARTH_RADIUS_KM,
  geoBoxDistance,
  geoNearest,
  geoNearestInto,
  geoSearchBox,
  geoWithin,
  haversine,
} from './great-circle.js';
export {
  itemsByTile,
  type LonLatBox,
  lonLatToQuadkey,
  lonLatToTile,
  MAX_MERCATOR_LATITUDE,
  MAX_ZOOM,
  quadkeyToTile,
  type Tile,
  type TileRange,
  tileBounds,
  tileRange,
  tileToQuadkey,
} from './tiles.js';
