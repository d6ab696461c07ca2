import { AppError } from '../shared/app-error.js';
import { text } from '../text/index.js';

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

/** What the registrar said, as quoted in a user message: at most 300 characters. */
const upstream = (message: string) => message.slice(0, 300);

export class BadRequestError extends RegistrarError {
  constructor(operation: string, message = '') {
    super(
      'bad_request',
      text.slack.registrarBadRequest({ upstream: upstream(message) }),
      400,
      operation,
      message,
    );
  }
}

export class UnauthorizedError extends RegistrarError {
  constructor(operation: string, message = '') {
    super('unauthorized', text.slack.registrarUnauthorized, 401, operation, message);
  }
}

/** 403: the domain guard blocked the change, or the assistant is not available for this key. */
export class ForbiddenError extends RegistrarError {
  constructor(operation: string, message = '') {
    const userMessage =
      operation === 'assistant.search'
        ? text.slack.registrarAssistantUnavailable
        : text.slack.registrarGuardBlocked({ upstream: upstream(message) });
    super(
      operation === 'assistant.search' ? 'assistant_unavailable' : 'guard_blocked',
      userMessage,
      403,
      operation,
      message,
    );
  }
}

export class NotFoundError extends RegistrarError {
  constructor(operation: string, message = '') {
    super(
      'not_found',
      text.slack.registrarNotFound({ upstream: upstream(message) }),
      404,
      operation,
      message,
    );
  }
}

export class ConflictError extends RegistrarError {
  constructor(operation: string, message = '') {
    super('conflict', text.slack.registrarConflict({ upstream: upstream(message) }), 409, operation, message);
  }
}

export class RecordSetInvalidError extends RegistrarError {
  constructor(operation: string, message = '') {
    super(
      'record_set_invalid',
      text.slack.registrarRecordSetInvalid({ upstream: upstream(message) }),
      417,
      operation,
      message,
    );
  }
}

export class RateLimitedError extends RegistrarError {
  readonly retryAfterMs: number | undefined;
  constructor(operation: string, message = '', retryAfterMs?: number) {
    const seconds = retryAfterMs === undefined ? undefined : Math.max(1, Math.ceil(retryAfterMs / 1000));
    super('rate_limited', text.slack.registrarRateLimited({ seconds }), 429, operation, message);
    this.retryAfterMs = retryAfterMs;
  }
}

export class InternalUpstreamError extends RegistrarError {
  constructor(operation: string, message = '') {
    super('internal', text.slack.registrarInternal, 500, operation, message);
  }
}

/** 502: provider or registry failure; for availability, "could not be determined" (never "taken"). */
export class UpstreamFailedError extends RegistrarError {
  constructor(operation: string, message = '') {
    const userMessage =
      operation === 'domains.availability'
        ? text.slack.registrarAvailabilityUnknown
        : text.slack.registrarUpstreamFailed({ upstream: upstream(message) });
    super(
      operation === 'domains.availability' ? 'availability_unknown' : 'upstream_failed',
      userMessage,
      502,
      operation,
      message,
    );
  }
}

export class AssistantBusyError extends RegistrarError {
  constructor(operation: string, message = '') {
    super('assistant_busy', text.slack.registrarAssistantBusy, 503, operation, message);
  }
}

export class UnexpectedStatusError extends RegistrarError {
  constructor(status: number, operation: string, message = '') {
    super('unexpected_status', text.slack.registrarUnexpectedStatus({ status }), status, operation, message);
  }
}

export class TimeoutError extends RegistrarError {
  constructor(operation: string, timeoutMs: number) {
    super('timeout', text.slack.registrarTimeout, 0, operation, `no answer within ${timeoutMs} ms`);
  }
}

export class NetworkError extends RegistrarError {
  constructor(operation: string, cause: string) {
    super('network', text.slack.registrarUnreachable, 0, operation, cause);
  }
}

/** The answer did not match the spec: never shown as data. `field` is the offending JSON path. */
export class MalformedResponseError extends RegistrarError {
  readonly field: string;
  constructor(operation: string, field: string, detail: string) {
    super('malformed_response', text.slack.registrarMalformed, 200, operation, `${field}: ${detail}`);
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
