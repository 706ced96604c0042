// quadkit/geo: great-circle queries, GeoJSON features and map tiles over quadkit's indexes.

export {
  EARTH_RADIUS_KM,
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
