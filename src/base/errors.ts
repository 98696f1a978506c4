import { type MessageKey, type ParamsFor, t, tIn } from './i18n/index.js';

/** An error whose message is meant for the user: one line, exit code 2, no stack trace. */
export class UsageError extends Error {
  override name = 'UsageError';
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

/**
 * A refusal of bad input raised below cli/ and commands/: it carries a catalog key and its params, never a sentence,
 * so that the boundary words it in the chosen language. Its message is the English wording, for what stays English
 * data (--json, the MCP server's answers).
 */
export class InputError<K extends MessageKey = MessageKey> extends UsageError {
  override name = 'InputError';
  readonly params: ParamsFor<K>;
  constructor(
    readonly key: K,
    ...params: ParamsFor<K>
  ) {
    super(tIn('en', key, ...params));
    this.params = params;
  }
}

/** A refusal's one line in the chosen language: an InputError is worded from the catalog, a UsageError as given. */
export function refusalText(err: UsageError): string {
  return err instanceof InputError ? t(err.key as MessageKey, ...(err.params as ParamsFor<MessageKey>)) : err.message;
}
