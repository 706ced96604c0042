// quadkit/geo: great-circle queries, GeoJSON features and map tiles over quadkit's indexes.

export {
  EARTH_RADIUS_KM,
  geoNearest,
  geoNearestInto,
  geoSearchBox,
  geoWithin,
  haversine,
} from './great-circle.js';
