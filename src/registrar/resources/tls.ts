import { z } from 'zod';
import { idPath, ifOffered, type RegistrarTransport } from '../client.js';
import { errorFromResponse, MalformedResponseError } from '../errors.js';
import { ErrorEnvelope } from '../schemas/common.js';
import {
  TlsCertificate,
  TlsCertificateCompleteParams,
  TlsCertificateOrderParams,
  TlsCertificateReissueParams,
  TlsCertificateRevokeParams,
  TlsProduct,
} from '../schemas/tls.js';

export type CertificateDownload =
  | { format: 'pem'; text: string }
  | { format: 'zip'; bytes: Uint8Array; contentType: string };

/** Spec 4.1: TLS certificate orders, reissues, cancellations, revocations and downloads. */
export function tlsResource(t: RegistrarTransport) {
  const path = (id: string, op: string, suffix = '') => `/tls/certificate/${idPath(id, op)}${suffix}`;
  return {
    /**
     * The registrar's certificate products (beyond v1.6.2, spec addendum §1 #8), or undefined when
     * this registrar does not offer the endpoint (404 or 405 from it): the capability probe.
     */
    products: async (): Promise<TlsProduct[] | undefined> =>
      ifOffered(t, {
        operation: 'tls.products',
        method: 'GET',
        path: '/tls/products',
        schema: z.array(TlsProduct),
        retry: true,
      }),
    /**
     * The account's certificates (beyond v1.6.2, spec addendum §1 #7), or undefined when this
     * registrar does not offer the list (404 or 405 from it).
     */
    list: async (): Promise<TlsCertificate[] | undefined> =>
      ifOffered(t, {
        operation: 'tls.list',
        method: 'GET',
        path: '/tls/certificate',
        schema: z.array(TlsCertificate),
        retry: true,
      }),
    /**
     * Completes a staged OV order (`action_required`) with an organization, without the dashboard
     * (beyond v1.6.2, spec addendum §1 #9); its `validation.dns_records` appear in the answer. A 405
     * (not offered) is `NotOfferedError`.
     */
    complete: async (id: string, orgId: string) =>
      t.json({
        operation: 'tls.complete',
        method: 'POST',
        path: path(id, 'tls.complete', '/complete'),
        body: TlsCertificateCompleteParams.parse({ org_id: orgId }),
        schema: TlsCertificate,
        retry: false,
      }),
    order: async (params: TlsCertificateOrderParams) =>
      t.json({
        operation: 'tls.order',
        method: 'POST',
        path: '/tls/certificate',
        body: TlsCertificateOrderParams.parse(params),
        schema: TlsCertificate,
        retry: false,
      }),
    reissue: async (id: string, params: TlsCertificateReissueParams) =>
      t.json({
        operation: 'tls.reissue',
        method: 'POST',
        path: path(id, 'tls.reissue', '/reissue'),
        body: TlsCertificateReissueParams.parse(params),
        schema: TlsCertificate,
        retry: false,
      }),
    get: async (id: string) =>
      t.json({
        operation: 'tls.get',
        method: 'GET',
        path: path(id, 'tls.get'),
        schema: TlsCertificate,
        retry: true,
      }),
    /** Cancels an unissued order, or revokes the whole issued order within its first 7 days. */
    cancelOrder: async (id: string, params: TlsCertificateRevokeParams = {}) =>
      t.json({
        operation: 'tls.orderCancel',
        method: 'POST',
        path: path(id, 'tls.orderCancel', '/order-cancel'),
        body: TlsCertificateRevokeParams.parse(params),
        schema: TlsCertificate,
        retry: false,
      }),
    revoke: async (id: string, params: TlsCertificateRevokeParams = {}) =>
      t.json({
        operation: 'tls.revoke',
        method: 'POST',
        path: path(id, 'tls.revoke', '/revoke'),
        body: TlsCertificateRevokeParams.parse(params),
        schema: TlsCertificate,
        retry: false,
      }),
    /**
     * PEM answers 200 text/plain (docs/registrar-api.md §4.1). The ZIP answer's content type and the `format` values
     * are "not shown": we ask for `pem` and `zip`, accept any binary body for zip, and also accept a
     * JSON envelope whose response carries the file as base64 (`content` or `data`).
     */
    download: async (id: string, format: 'pem' | 'zip'): Promise<CertificateDownload> => {
      const operation = 'tls.download';
      const { body, contentType } = await t.raw({
        operation,
        method: 'GET',
        path: path(id, operation, `/download/${format}`),
        retry: true,
      });
      if (contentType.includes('application/json')) {
        const json: unknown = JSON.parse(body.toString('utf8'));
        const failure = ErrorEnvelope.safeParse(json);
        if (failure.success) throw errorFromResponse(200, failure.data, operation);
        const wrapped = z
          .object({
            response: z.union([
              z.string(),
              z.looseObject({ content: z.string().optional(), data: z.string().optional() }),
            ]),
          })
          .safeParse(json);
        const inner = wrapped.success ? wrapped.data.response : undefined;
        const text = typeof inner === 'string' ? inner : (inner?.content ?? inner?.data);
        if (text === undefined)
          throw new MalformedResponseError(operation, 'response', 'no file in the answer');
        if (format === 'pem')
          return {
            format,
            text: text.includes('-----BEGIN') ? text : Buffer.from(text, 'base64').toString('utf8'),
          };
        return { format, bytes: new Uint8Array(Buffer.from(text, 'base64')), contentType: 'application/zip' };
      }
      if (format === 'pem') {
        const text = body.toString('utf8');
        if (!text.includes('-----BEGIN')) throw new MalformedResponseError(operation, 'body', 'not PEM text');
        return { format, text };
      }
      if (body.length === 0) throw new MalformedResponseError(operation, 'body', 'empty file');
      return { format, bytes: new Uint8Array(body), contentType: contentType || 'application/zip' };
    },
  };
}
