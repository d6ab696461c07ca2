import { AppError, type RegistrarErrorCode } from '../shared/app-error.js';
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

  constructor(
    code: RegistrarErrorCode,
    userMessage: () => string,
    status: number,
    operation: string,
    upstreamMessage = '',
  ) {
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
      () => text.slack.registrarBadRequest({ upstream: upstream(message) }),
      400,
      operation,
      message,
    );
  }
}

/**
 * The DNS record writes (beyond v1.6.2). Keys carry roles (read only, DNS administrator, …; spec
 * addendum §3), so a 401/403 on one of these means this key lacks the role, not that the key is wrong.
 */
export const DNS_RECORD_WRITES: ReadonlySet<string> = new Set([
  'dns.recordCreate',
  'dns.recordUpdate',
  'dns.recordDelete',
]);

export class UnauthorizedError extends RegistrarError {
  constructor(operation: string, message = '') {
    const dnsWrite = DNS_RECORD_WRITES.has(operation);
    super(
      dnsWrite ? 'dns_write_denied' : 'unauthorized',
      () => (dnsWrite ? text.slack.registrarDnsWriteDenied : text.slack.registrarUnauthorized),
      401,
      operation,
      message,
    );
  }
}

/**
 * 403: the domain guard blocked the change, the assistant is not available for this key, or the key
 * may not change DNS records.
 */
export class ForbiddenError extends RegistrarError {
  constructor(operation: string, message = '') {
    const [code, userMessage]: [RegistrarErrorCode, () => string] =
      operation === 'assistant.search'
        ? ['assistant_unavailable', () => text.slack.registrarAssistantUnavailable]
        : DNS_RECORD_WRITES.has(operation)
          ? ['dns_write_denied', () => text.slack.registrarDnsWriteDenied]
          : ['guard_blocked', () => text.slack.registrarGuardBlocked({ upstream: upstream(message) })];
    super(code, userMessage, 403, operation, message);
  }
}

/**
 * 405 from an endpoint beyond v1.6.2: this registrar does not offer it (the capability probe,
 * docs/registrar-api.md §10). Listings answer `undefined` instead; writes throw this.
 */
export class NotOfferedError extends RegistrarError {
  constructor(operation: string, message = '') {
    super('not_offered', () => text.slack.registrarNotOffered, 405, operation, message);
  }
}

export class NotFoundError extends RegistrarError {
  constructor(operation: string, message = '') {
    super(
      'not_found',
      () => text.slack.registrarNotFound({ upstream: upstream(message) }),
      404,
      operation,
      message,
    );
  }
}

export class ConflictError extends RegistrarError {
  constructor(operation: string, message = '') {
    super(
      'conflict',
      () => text.slack.registrarConflict({ upstream: upstream(message) }),
      409,
      operation,
      message,
    );
  }
}

export class RecordSetInvalidError extends RegistrarError {
  constructor(
    operation: string,
    message = '',
    /** A subclass's more specific code and sentence for the same status. */
    specific: { code: RegistrarErrorCode; userMessage: () => string } = {
      code: 'record_set_invalid',
      userMessage: () => text.slack.registrarRecordSetInvalid({ upstream: upstream(message) }),
    },
  ) {
    super(specific.code, specific.userMessage, 417, operation, message);
  }
}

/** 417 with code 15003 (recorded): the exact record (name, type and data) exists already. */
export class DuplicateRecordError extends RecordSetInvalidError {
  constructor(operation: string, message = '') {
    super(operation, message, {
      code: 'duplicate_record',
      userMessage: () => text.slack.registrarDuplicateRecord({ upstream: upstream(message) }),
    });
  }
}

export class RateLimitedError extends RegistrarError {
  readonly retryAfterMs: number | undefined;
  constructor(operation: string, message = '', retryAfterMs?: number) {
    const seconds = retryAfterMs === undefined ? undefined : Math.max(1, Math.ceil(retryAfterMs / 1000));
    super('rate_limited', () => text.slack.registrarRateLimited({ seconds }), 429, operation, message);
    this.retryAfterMs = retryAfterMs;
  }
}

export class InternalUpstreamError extends RegistrarError {
  constructor(operation: string, message = '') {
    super('internal', () => text.slack.registrarInternal, 500, operation, message);
  }
}

/** 502: provider or registry failure; for availability, "could not be determined" (never "taken"). */
export class UpstreamFailedError extends RegistrarError {
  constructor(operation: string, message = '') {
    const availability = operation === 'domains.availability';
    super(
      availability ? 'availability_unknown' : 'upstream_failed',
      () =>
        availability
          ? text.slack.registrarAvailabilityUnknown
          : text.slack.registrarUpstreamFailed({ upstream: upstream(message) }),
      502,
      operation,
      message,
    );
  }
}

export class AssistantBusyError extends RegistrarError {
  constructor(operation: string, message = '') {
    super('assistant_busy', () => text.slack.registrarAssistantBusy, 503, operation, message);
  }
}

export class UnexpectedStatusError extends RegistrarError {
  constructor(status: number, operation: string, message = '') {
    super(
      'unexpected_status',
      () => text.slack.registrarUnexpectedStatus({ status }),
      status,
      operation,
      message,
    );
  }
}

export class TimeoutError extends RegistrarError {
  constructor(operation: string, timeoutMs: number) {
    super('timeout', () => text.slack.registrarTimeout, 0, operation, `no answer within ${timeoutMs} ms`);
  }
}

export class NetworkError extends RegistrarError {
  constructor(operation: string, cause: string) {
    super('network', () => text.slack.registrarUnreachable, 0, operation, cause);
  }
}

/** The answer did not match the spec: never shown as data. `field` is the offending JSON path. */
export class MalformedResponseError extends RegistrarError {
  readonly field: string;
  constructor(operation: string, field: string, detail: string) {
    super('malformed_response', () => text.slack.registrarMalformed, 200, operation, `${field}: ${detail}`);
    this.field = field;
  }
}

/** Real service quirk: an unknown domain answers HTTP 200 with `success:false` and code 15001. */
const NOT_FOUND_CODES = new Set([15001]);
/** The recorded duplicate-record answer: HTTP 417, code 15003, "Record already exists …". */
const DUPLICATE_RECORD_CODE = 15003;

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
    case 405:
      return new NotOfferedError(operation, message);
    case 409:
      return new ConflictError(operation, message);
    case 417:
      return body?.code === DUPLICATE_RECORD_CODE
        ? new DuplicateRecordError(operation, message)
        : new RecordSetInvalidError(operation, message);
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
