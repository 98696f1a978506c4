// Types of ./i18n-slots.mjs for the tests.
export const SLOTS_FILE: string;
export function slotsSource(): Promise<string>;
export function writeSlots(): Promise<boolean>;
