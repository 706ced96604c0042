// The GeoJSON shapes the clusterer reads and writes (RFC 7946), and the cluster features it makes.

import type { Level } from './levels.js';
import { decode, xLng, yLat } from './mercator.js';

/** A GeoJSON Point feature: the input of `load`, returned as it is for unclustered points. */
export interface PointFeature<P> {
  /** Always `'Feature'`. */
  type: 'Feature';
  /** The point's identifier, if it has one. */
  id?: number | string | undefined;
  /** The point's properties, returned as given. */
  properties: P;
  /** The point's geometry. */
  geometry: {
    /** Always `'Point'`. */
    type: 'Point';
    /** Longitude and latitude in degrees (further numbers ignored). */
    coordinates: number[];
  };
}

/** The properties every cluster feature has (the same names as supercluster's). */
export interface ClusterProperties {
  /** Always true: marks the feature as a cluster. */
  cluster: true;
  /** The cluster's id, for getChildren, getLeaves and getClusterExpansionZoom. */
  cluster_id: number;
  /** The number of points in the cluster. */
  point_count: number;
  /** The count for a label: 950, 1.2k, 15k. */
  point_count_abbreviated: number | string;
}

/** A cluster as a GeoJSON Point feature at the cluster's weighted centre; `id` is its cluster id. */
export interface ClusterFeature<C> {
  /** Always `'Feature'`. */
  type: 'Feature';
  /** The cluster's id, as in `properties.cluster_id`. */
  id: number;
  /** The cluster fields plus the cluster's reduced properties. */
  properties: ClusterProperties & C;
  /** The cluster's position. */
  geometry: {
    /** Always `'Point'`. */
    type: 'Point';
    /** Longitude and latitude in degrees of the cluster's weighted centre. */
    coordinates: [number, number];
  };
}

/**
 * The count for a cluster's label, as supercluster abbreviates it: 999, 1.2k, 15k.
 * @param count - points in the cluster.
 */
export function abbreviate(count: number): number | string {
  if (count >= 10000) return `${Math.round(count / 1000)}k`;
  if (count >= 1000) return `${Math.round(count / 100) / 10}k`;
  return count;
}

/**
 * The properties of cluster item `i` of `level`: a copy of its reduced properties (if any) plus
 * the cluster fields.
 * @param level - the level holding the cluster.
 * @param i - the item.
 * @param reduced - the reduced properties of the cluster, or undefined.
 */
export function clusterProperties<C>(
  level: Level,
  i: number,
  reduced: C | undefined,
): ClusterProperties & C {
  const count = level.num[i]!;
  const props = (reduced === undefined ? {} : Object.assign({}, reduced)) as ClusterProperties & C;
  props.cluster = true;
  props.cluster_id = level.ref[i]!;
  props.point_count = count;
  props.point_count_abbreviated = abbreviate(count);
  return props;
}

/**
 * Cluster item `i` of `level` as a feature.
 * @param level - the level holding the cluster.
 * @param i - the item.
 * @param reduced - the reduced properties of the cluster, or undefined.
 */
export function clusterFeature<C>(
  level: Level,
  i: number,
  reduced: C | undefined,
): ClusterFeature<C> {
  return {
    type: 'Feature',
    id: level.ref[i]!,
    properties: clusterProperties(level, i, reduced),
    geometry: {
      type: 'Point',
      coordinates: [xLng(decode(level.x[i]!)), yLat(decode(level.y[i]!))],
    },
  };
}
