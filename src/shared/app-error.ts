/**
 * One family of errors with stable codes (`regdesk_*`) and a message a Slack user can act on.
 * The Slack error handler shows `userMessage`; logs get `code` and `message`.
 */
export class AppError extends Error {
  readonly code: string;
  readonly userMessage: string;

  constructor(code: string, userMessage: string, options?: { cause?: unknown; message?: string }) {
    super(
      options?.message ?? userMessage,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'AppError';
    this.code = code;
    this.userMessage = userMessage;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
