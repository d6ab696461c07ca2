import { inLanguage } from '../text/index.js';

/**
 * Every code an `AppError` carries: stable, for logs, alerts and tests to match on. A new failure
 * adds its code here, so a code is never a free string nobody can list.
 */
export const ERROR_CODES = [
  // People in Slack: refusals and failures they can act on
  'regdesk_permission_refused',
  'regdesk_approval_refused',
  'regdesk_reason_needed',
  'regdesk_approval_corrupt',
  'regdesk_record_change_refused',
  'regdesk_publish_not_written',
  'regdesk_tls_order_pending',
  'regdesk_tls_reissue_expired',
  'regdesk_question_refused',
  'regdesk_dns_check_refused',
  'regdesk_check_cap',
  'regdesk_watch_pace',
  'regdesk_rdap_unavailable',
  'regdesk_no_api_key',
  'regdesk_unreadable_api_key',
  'regdesk_cannot_post_here',
  'regdesk_bad_view_metadata',
  // Storage
  'regdesk_redis_unavailable',
  'regdesk_claim_not_durable',
  // Operators: the process, its data directory and its private Redis
  'regdesk_redis_server_missing',
  'regdesk_redis_server_failed',
  'regdesk_private_redis_leftover',
  'regdesk_password_file_unreadable',
  'regdesk_password_file_open',
  'regdesk_password_file_bad',
  'regdesk_data_dir_open',
  'regdesk_data_dir_unwritable',
  'regdesk_data_dir_locked',
  'regdesk_data_dir_busy',
  'regdesk_data_format_unknown',
  'regdesk_data_format_newer',
  'regdesk_manifest_unreadable',
  'regdesk_manifest_host',
] as const;

/** How the registrar failed (src/registrar/errors.ts, one class per documented status). */
export const REGISTRAR_ERROR_CODES = [
  'bad_request',
  'unauthorized',
  'dns_write_denied',
  'assistant_unavailable',
  'guard_blocked',
  'not_offered',
  'not_found',
  'conflict',
  'record_set_invalid',
  'duplicate_record',
  'rate_limited',
  'internal',
  'availability_unknown',
  'upstream_failed',
  'assistant_busy',
  'unexpected_status',
  'timeout',
  'network',
  'malformed_response',
] as const;
export type RegistrarErrorCode = (typeof REGISTRAR_ERROR_CODES)[number];

export type ErrorCode = (typeof ERROR_CODES)[number] | `regdesk_registrar_${RegistrarErrorCode}`;

/**
 * One family of errors with stable codes (`regdesk_*`) and a message a Slack user can act on.
 * The Slack error handler shows `userMessage`; logs get `code` and `message`.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly #userMessage: () => string;

  /**
   * A `userMessage` given as a function is said anew each time it is read, in the language of that
   * moment (src/text/index.ts): how an error class words its own message. Unless `options.message`
   * says otherwise, `message` (for logs) is the user message in English, whoever it is said to:
   * operators read one language in the logs.
   */
  constructor(
    code: ErrorCode,
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
