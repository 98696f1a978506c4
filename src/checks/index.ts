// Every check, in report order. Adding a check = one file and one line here.
import type { Check } from './check.js';
import { driverCheck } from './gpu/driver.js';

export const ALL_CHECKS: readonly Check[] = [
  driverCheck,
];
