import { randomBytes } from 'node:crypto';
import {
  ForbiddenError,
  NotFoundError,
  type RegistrarClient,
  UnauthorizedError,
} from '../../registrar/index.js';
import type { KeyCheck } from './service.js';

/**
 * A key is checked with a read that answers 401 for a bad key and costs no limited quota:
 * fetching an organization id that cannot exist (404 means the key was accepted).
 */
export function registrarKeyCheck(clientFor: (apiKey: string) => RegistrarClient): KeyCheck {
  return async (apiKey) => {
    try {
      await clientFor(apiKey).organizations.get(`regdesk-key-check-${randomBytes(4).toString('hex')}`);
      return { ok: true };
    } catch (error) {
      if (error instanceof NotFoundError || error instanceof ForbiddenError) return { ok: true };
      if (error instanceof UnauthorizedError) return { ok: false, reason: 'rejected' };
      return { ok: false, reason: 'unreachable' };
    }
  };
}
