// The parts of autocannon's programmatic API the benchmarks use (it ships no types).
declare module 'autocannon' {
  type Histogram = { average: number; p50: number; p90: number; p97_5: number; p99: number; max: number };
  export type Result = {
    latency: Histogram;
    requests: Histogram & { total: number };
    non2xx: number;
    errors: number;
    timeouts: number;
    duration: number;
  };
  export type Options = {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
  };
  export default function autocannon(options: Options): Promise<Result>;
}
