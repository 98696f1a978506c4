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
