import * as wire from 'dns-packet';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseReply } from '../../src/dns/transport.js';

/** A real answer with every section filled, as a nameserver of example.de might send it. */
const ANSWER = wire.encode({
  type: 'response',
  id: 4242,
  flags: wire.AUTHORITATIVE_ANSWER | wire.AUTHENTIC_DATA,
  questions: [{ type: 'SOA', name: 'example.de', class: 'IN' }],
  answers: [
    {
      type: 'SOA',
      name: 'example.de',
      ttl: 60,
      data: {
        mname: 'ns1.example.de',
        rname: 'hostmaster.example.de',
        serial: 2026112801,
        refresh: 3600,
        retry: 600,
        expire: 86400,
        minimum: 60,
      },
    },
    { type: 'TXT', name: 'example.de', ttl: 60, data: ['v=spf1 -all'] },
    { type: 'CAA', name: 'example.de', ttl: 60, data: { flags: 0, tag: 'issue', value: 'digicert.com' } },
  ],
  authorities: [{ type: 'NS', name: 'example.de', ttl: 60, data: 'ns1.example.de' }],
  additionals: [{ type: 'A', name: 'ns1.example.de', ttl: 60, data: '192.0.2.53' }],
});

describe('the DNS reply parser, fed what a hostile server could send', () => {
  it('reads a real answer to the question it asked, and nothing else', () => {
    expect(parseReply(ANSWER, 4242, 'example.de', 'SOA')?.answers).toHaveLength(3);
    expect(parseReply(ANSWER, 4242, 'EXAMPLE.de.', 'SOA')).toBeDefined();
    expect(parseReply(ANSWER, 4243, 'example.de', 'SOA')).toBeUndefined();
    expect(parseReply(ANSWER, 4242, 'example.com', 'SOA')).toBeUndefined();
    expect(parseReply(ANSWER, 4242, 'example.de', 'A')).toBeUndefined();
    // A query echoed back is not an answer.
    const query = wire.encode({ type: 'query', id: 4242, questions: [{ type: 'SOA', name: 'example.de' }] });
    expect(parseReply(query, 4242, 'example.de', 'SOA')).toBeUndefined();
  });

  it('never throws on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), (bytes) => {
        parseReply(Buffer.from(bytes), 4242, 'example.de', 'SOA');
      }),
      { numRuns: 5_000 },
    );
  });

  it('never throws on the real answer cut short at any byte', () => {
    for (let length = 0; length < ANSWER.length; length++)
      expect(parseReply(ANSWER.subarray(0, length), 4242, 'example.de', 'SOA')).toBeUndefined();
  });

  it('never throws on the real answer with bytes changed (counts, lengths, compression pointers)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: ANSWER.length - 1 }), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 8,
        }),
        (changes) => {
          const mutated = Buffer.from(ANSWER);
          for (const [at, value] of changes) mutated[at] = value;
          const reply = parseReply(mutated, 4242, 'example.de', 'SOA');
          // Whatever passes is a response to our question, with sections the checks can walk.
          if (reply !== undefined) {
            expect(reply.type).toBe('response');
            for (const record of [...(reply.answers ?? []), ...(reply.additionals ?? [])])
              expect(typeof record.name).toBe('string');
          }
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('never throws on a compression pointer loop', () => {
    // Header (id 4242, one question) then a name that points at itself.
    const loop = Buffer.from([0x10, 0x92, 0x81, 0x80, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 12, 0, 6, 0, 1]);
    expect(parseReply(loop, 4242, 'example.de', 'SOA')).toBeUndefined();
  });
});
