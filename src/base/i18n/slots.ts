// The slots a message takes, so that t(key, params) with a slot missing, or a slot the message does not have, is a
// compile error. The names come from ./slots.generated.ts, written from the English text by the build with the
// catalog's own parser (the checker cannot read them from en.ts: a long message is a concatenation, typed string);
// zh.ts uses the same slots as en.ts (test/i18n/catalog.test.ts).
import type { MessageKey } from './en.js';
import type { Params } from './format.js';
import type { Slots } from './slots.generated.js';

/** The slot names of the message `K` (never when it takes none). */
export type SlotsOf<K extends MessageKey> = K extends keyof Slots ? Slots[K] : never;

type Value = Params[string];

/**
 * The params argument of t(key, …): none for a message without slots, else an object with exactly its slots.
 * A key known only as a union (computed from data) takes the params of any one of its messages; a key typed as any
 * MessageKey takes any Params (the message is chosen at run time, and the renderer checks its slots then).
 */
export type ParamsFor<K extends MessageKey> = [MessageKey] extends [K]
  ? [params?: Params]
  : K extends MessageKey
    ? [SlotsOf<K>] extends [never]
      ? [params?: Record<string, never>]
      : [params: { readonly [P in SlotsOf<K>]: Value }]
    : never;
