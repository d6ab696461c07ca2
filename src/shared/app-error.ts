import { inLanguage } from '../text/index.js';

/**
 * One family of errors with stable codes (`regdesk_*`) and a message a Slack user can act on.
 * The Slack error handler shows `userMessage`; logs get `code` and `message`.
 */
export class AppError extends Error {
  readonly code: string;
  readonly #userMessage: () => string;

  /**
   * A `userMessage` given as a function is said anew each time it is read, in the language of that
   * moment (src/text/index.ts): how an error class words its own message. Unless `options.message`
   * says otherwise, `message` (for logs) is the user message in English, whoever it is said to:
   * operators read one language in the logs.
   */
  constructor(
    code: string,
    userMessage: string | (() => string),
    options?: { cause?: unknown; message?: string },
  ) {
    const say = typeof userMessage === 'string' ? () => userMessage : userMessage;
    super(
      options?.message ?? inLanguage('en', say),
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'AppError';
    this.code = code;
    this.#userMessage = say;
  }

  get userMessage(): string {
    return this.#userMessage();
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
