// The package ships no types: the shape its README documents (prom2json's).
declare module 'parse-prometheus-text-format' {
  interface Parsed {
    name: string;
    help: string;
    type: 'GAUGE' | 'COUNTER' | 'SUMMARY' | 'HISTOGRAM' | 'UNTYPED';
    metrics: { value: string; labels?: Record<string, string> }[];
  }
  export default function parsePrometheusTextFormat(text: string): Parsed[];
}
