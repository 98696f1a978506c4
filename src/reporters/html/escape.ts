// Escaping for the HTML report. Everything that comes from the machine or a log goes through `esc`:
// logs can hold `<script>`, `<img onerror=…>`, `</svg>` or `</textarea>`, and a report must show them as text.
// The same escaping is right inside inline SVG (the HTML parser reads it) and inside attribute values.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function esc(value: unknown): string {
  return clean(String(value ?? '')).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** Terminal colour codes, other escape sequences and control characters, removed for display. */
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

export function clean(s: string): string {
  return s.replace(ANSI, '').replace(CONTROL, '\uFFFD');
}

/** A number for an SVG attribute: finite, at most 2 decimals. */
export function num(n: number): string {
  if (!Number.isFinite(n)) return '0';
  return String(Math.round(n * 100) / 100);
}
