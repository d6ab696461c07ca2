import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RegistrarTransport } from '../../src/registrar/client.js';
import { createRegistrarClient, NotFoundError, RecordSetInvalidError } from '../../src/registrar/index.js';
import { type Interaction, recordedInteractions } from '../helpers/cassettes.js';

const interactions = recordedInteractions();

/** Replays one recorded answer, as the real service gave it, through an injected fetch. */
function replay(interaction: Interaction): typeof fetch {
  return async () =>
    new Response(interaction.response.body.string, {
      status: interaction.response.status.code,
      headers: Object.fromEntries(
        Object.entries(interaction.response.headers).map(([k, v]) => [k, v[0] ?? '']),
      ),
    });
}

describe('recorded exchanges with the real registrar (lexicon cassettes, 2024-11)', () => {
  const listings = interactions.filter(
    (i) => i.request.method === 'GET' && /\/dns\/[^/]+\/rr$/.test(i.request.uri),
  );

  it('parses every recorded record listing, or reports the unknown domain as not found', async () => {
    expect(listings.length).toBeGreaterThan(40);
    let parsed = 0;
    for (const interaction of listings) {
      const domain = /\/dns\/([^/]+)\/rr$/.exec(interaction.request.uri)?.[1] ?? '';
      const client = createRegistrarClient({
        baseUrl: 'https://api.regfish.de',
        apiKey: 'k',
        fetch: replay(interaction),
      });
      const body = JSON.parse(interaction.response.body.string) as { success: boolean };
      if (body.success) {
        const records = await client.dns.records(domain);
        expect(records.every((r) => r.name.endsWith('.') && r.type !== '')).toBe(true);
        parsed++;
      } else {
        // HTTP 200 with success:false and code 15001: judged by the envelope, not the status.
        expect(interaction.response.status.code).toBe(200);
        await expect(client.dns.records(domain)).rejects.toBeInstanceOf(NotFoundError);
      }
    }
    expect(parsed).toBeGreaterThan(40);
  });

  it('maps the recorded 417 duplicate-record answer to a typed error that keeps the registrar message', async () => {
    const duplicate = interactions.find((i) => i.response.status.code === 417);
    expect(duplicate).toBeDefined();
    if (duplicate === undefined) return;
    const transport = new RegistrarTransport({
      baseUrl: 'https://api.regfish.de',
      apiKey: 'k',
      fetch: replay(duplicate),
    });
    const error = await transport
      .json({
        operation: 'dns.recordCreate',
        method: 'POST',
        path: '/dns/rr',
        body: {},
        schema: z.unknown(),
        retry: false,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecordSetInvalidError);
    expect((error as RecordSetInvalidError).upstreamMessage).toContain('Record already exists');
  });
});
