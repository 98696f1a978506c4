// Types of ./snapshot-validator.mjs for the tests.
export const VALIDATOR_FILE: string;
export function validatorText(): Promise<string>;
export function writeValidator(): Promise<boolean>;
