// Escaping for the HTML report. Everything that comes from the machine or a log goes through `esc`:
// logs can hold `<script>`, `<img onerror=…>`, `</svg>` or `</textarea>`, and a report must show them as text.
// The same escaping is right inside inline SVG (the HTML parser reads it) and inside attribute values.
import { visible } from '../escape.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function esc(value: unknown): string {
  return clean(String(value ?? '')).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

// eslint-disable-next-line no-control-regex
const SGR = /\x1b\[[0-9;:]*m/g;

/** Colour codes removed (they only colour); every other control character and escape sequence shown as text. */
export function clean(s: string): string {
  return visible(s.replace(SGR, ''));
}

/** A number for an SVG attribute: finite, at most 2 decimals. */
export function num(n: number): string {
  if (!Number.isFinite(n)) return '0';
  return String(Math.round(n * 100) / 100);
}
