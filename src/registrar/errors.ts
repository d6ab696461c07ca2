import { AppError } from '../shared/app-error.js';

/**
 * One error class per documented status (docs/registrar-api.md §7), each with the spec's meaning and a message a
 * Slack user can act on. Errors carry the operation and the registrar's own message, never the
 * request (its headers hold the API key).
 */
export class RegistrarError extends AppError {
  readonly status: number;
  readonly operation: string;
  readonly upstreamMessage: string;

  constructor(code: string, userMessage: string, status: number, operation: string, upstreamMessage = '') {
    super(`regdesk_registrar_${code}`, userMessage, {
      message: `${operation}: HTTP ${status}${upstreamMessage === '' ? '' : ` ${upstreamMessage}`}`,
    });
    this.name = new.target.name;
    this.status = status;
    this.operation = operation;
    this.upstreamMessage = upstreamMessage;
  }
}

const said = (message: string) => (message === '' ? '' : ` The registrar says: “${message.slice(0, 300)}”.`);

export class BadRequestError extends RegistrarError {
  constructor(operation: string, message = '') {
    super(
      'bad_request',
      `The registrar refused the request as invalid.${said(message)}`,
      400,
      operation,
      message,
    );
  }
}

export class UnauthorizedError extends RegistrarError {
  constructor(operation: string, message = '') {
    super(
      'unauthorized',
      "The registrar rejected this workspace's API key. A workspace admin can replace it with `/domain key`.",
      401,
      operation,
      message,
    );
  }
}

/** 403: the domain guard blocked the change, or the assistant is not available for this key. */
export class ForbiddenError extends RegistrarError {
  constructor(operation: string, message = '') {
    const text =
      operation === 'assistant.search'
        ? "The assistant is not available for this workspace's key."
        : `The domain guard blocked this action. It must be allowed in the registrar's dashboard first.${said(message)}`;
    super(
      operation === 'assistant.search' ? 'assistant_unavailable' : 'guard_blocked',
      text,
      403,
      operation,
      message,
    );
  }
}

export class NotFoundError extends RegistrarError {
  constructor(operation: string, message = '') {
    super('not_found', `Not found in this registrar account.${said(message)}`, 404, operation, message);
  }
}

export class ConflictError extends RegistrarError {
  constructor(operation: string, message = '') {
    super('conflict', `The current state does not allow this.${said(message)}`, 409, operation, message);
  }
}

export class RecordSetInvalidError extends RegistrarError {
  constructor(operation: string, message = '') {
    super(
      'record_set_invalid',
      `The registrar refused the record set for this domain's registry or provider.${said(message)}`,
      417,
      operation,
      message,
    );
  }
}

export class RateLimitedError extends RegistrarError {
  readonly retryAfterMs: number | undefined;
  constructor(operation: string, message = '', retryAfterMs?: number) {
    const when = retryAfterMs === undefined ? 'later' : `in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s`;
    super(
      'rate_limited',
      `The registrar's limit for this is reached; try again ${when}.`,
      429,
      operation,
      message,
    );
    this.retryAfterMs = retryAfterMs;
  }
}

export class InternalUpstreamError extends RegistrarError {
  constructor(operation: string, message = '') {
    super(
      'internal',
      'The registrar had an unexpected error. Try again in a few minutes.',
      500,
      operation,
      message,
    );
  }
}

/** 502: provider or registry failure; for availability, "could not be determined" (never "taken"). */
export class UpstreamFailedError extends RegistrarError {
  constructor(operation: string, message = '') {
    const text =
      operation === 'domains.availability'
        ? 'Availability could not be determined right now; try again.'
        : `The registry or certificate provider failed.${said(message)} Try again later.`;
    super(
      operation === 'domains.availability' ? 'availability_unknown' : 'upstream_failed',
      text,
      502,
      operation,
      message,
    );
  }
}

export class AssistantBusyError extends RegistrarError {
  constructor(operation: string, message = '') {
    super('assistant_busy', 'The assistant is busy; your question will be retried.', 503, operation, message);
  }
}

export class UnexpectedStatusError extends RegistrarError {
  constructor(status: number, operation: string, message = '') {
    super(
      'unexpected_status',
      `The registrar answered with an unexpected status (${status}).`,
      status,
      operation,
      message,
    );
  }
}

export class TimeoutError extends RegistrarError {
  constructor(operation: string, timeoutMs: number) {
    super(
      'timeout',
      'The registrar did not answer in time. Try again in a moment.',
      0,
      operation,
      `no answer within ${timeoutMs} ms`,
    );
  }
}

export class NetworkError extends RegistrarError {
  constructor(operation: string, cause: string) {
    super('network', 'The registrar could not be reached. Try again in a moment.', 0, operation, cause);
  }
}

/** The answer did not match the spec: never shown as data. `field` is the offending JSON path. */
export class MalformedResponseError extends RegistrarError {
  readonly field: string;
  constructor(operation: string, field: string, detail: string) {
    super(
      'malformed_response',
      'The registrar sent an answer Regdesk cannot read; nothing is shown from it.',
      200,
      operation,
      `${field}: ${detail}`,
    );
    this.field = field;
  }
}

/** Real service quirk: an unknown domain answers HTTP 200 with `success:false` and code 15001. */
const NOT_FOUND_CODES = new Set([15001]);

export function errorFromResponse(
  status: number,
  body: { message?: string | undefined; error?: string | undefined; code?: number | undefined } | undefined,
  operation: string,
  retryAfterMs?: number,
): RegistrarError {
  const message = body?.message ?? body?.error ?? '';
  switch (status) {
    case 400:
      return new BadRequestError(operation, message);
    case 401:
      return new UnauthorizedError(operation, message);
    case 403:
      return new ForbiddenError(operation, message);
    case 404:
      return new NotFoundError(operation, message);
    case 409:
      return new ConflictError(operation, message);
    case 417:
      return new RecordSetInvalidError(operation, message);
    case 429:
      return new RateLimitedError(operation, message, retryAfterMs);
    case 500:
      return new InternalUpstreamError(operation, message);
    case 502:
      return new UpstreamFailedError(operation, message);
    case 503:
      return new AssistantBusyError(operation, message);
    default:
      if (status >= 200 && status < 300) {
        // success:false inside a 2xx: judge the envelope, not the status.
        if ((body?.code !== undefined && NOT_FOUND_CODES.has(body.code)) || /not found/i.test(message)) {
          return new NotFoundError(operation, message);
        }
        return new BadRequestError(operation, message);
      }
      return new UnexpectedStatusError(status, operation, message);
  }
}
