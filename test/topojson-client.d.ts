// The one function of topojson-client the tests use (the package ships no types).
declare module 'topojson-client' {
  export function feature(topology: unknown, object: unknown): unknown;
}
