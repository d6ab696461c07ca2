import type { KnownBlock } from '@slack/types';
import { context, packLines, slackDate } from '../../slack/blocks.js';
import { codeSpan } from '../../slack/mrkdwn.js';
import { markup, text } from '../../text/index.js';
import type { CtSeen, ServedSeen } from './seen.js';
import type { WatchedEntry } from './service.js';

/**
 * What the served and Certificate Transparency looks saw, in words for `/tls watch list`,
 * `/domain watch list`, the digest and App Home (contract §3 "What is served and what is issued").
 * Nothing here calls anyone: the words come from the state the last look saved. A question that
 * could not be asked is "could not check", never left out as if fine.
 */

/** `served: …` of a certificate's line; undefined before its first served look. */
export function servedPart(served: ServedSeen | undefined): string | undefined {
  if (served === undefined) return undefined;
  const names = served.names;
  if ((served.current === 0 && served.stale === 0) || names === undefined || names.asked === 0)
    return text.served.servedPart({
      state: markup(
        text.served.servedCouldNotCheck({ since: slackDate(served.blindSince ?? served.checkedAt) }),
      ),
    });
  if (names.serving === names.asked)
    return text.served.servedPart({ state: markup(text.served.servedAll({ count: names.asked })) });
  const parts = [text.served.servedSome({ serving: names.serving, asked: names.asked })];
  const [first] = names.stale;
  if (first !== undefined) {
    const name = codeSpan(first.name);
    const stale =
      first.why === 'older' ? text.served.servedStillOlder({ name }) : text.served.servedEndsSooner({ name });
    parts.push(
      names.staleCount > 1
        ? `${stale} ${text.served.servedMoreStale({ count: names.staleCount - 1 })}`
        : stale,
    );
  }
  if (names.unchecked > 0) parts.push(text.served.servedNamesUnchecked({ count: names.unchecked }));
  return text.served.servedPart({ state: markup(parts.join('; ')) });
}

/** `CT: …` of a zone's line; undefined while CT search is off or before the zone's first search. */
export function ctPart(ct: CtSeen | undefined): string | undefined {
  if (ct === undefined || ct.checkedAt === undefined) return undefined;
  const parts: string[] = [];
  const unknown = ct.unknown?.length ?? 0;
  if (unknown > 0) parts.push(text.served.ctUnknown({ count: unknown }));
  if (ct.failures > 0)
    parts.push(text.served.ctCouldNotCheck({ since: slackDate(ct.failingSince ?? ct.checkedAt) }));
  else if (ct.status === 'unchecked') parts.push(text.served.ctReading({ at: slackDate(ct.checkedAt) }));
  else if (unknown === 0) parts.push(text.served.ctClear({ at: slackDate(ct.checkedAt) }));
  return text.served.ctPart({ state: markup(parts.join('; ')) });
}

/** Whether a watch's served or CT state wants a person's eye: anything but "all serve it" and "nothing foreign". */
function wantsAttention({ item, state }: WatchedEntry): boolean {
  if (item.kind === 'certificate') {
    const names = state.served?.names;
    return (
      state.served !== undefined &&
      (names === undefined || names.serving !== names.asked || names.asked === 0)
    );
  }
  const ct = state.ct;
  return ct?.checkedAt !== undefined && ((ct.unknown?.length ?? 0) > 0 || ct.failures > 0);
}

/**
 * The digest's and App Home's part about served certificates and CT: the watches that want a look,
 * one line each (at most `maxLines`), and how many are fine. Nothing when no look has asked yet.
 */
export function servedAndIssuedBlocks(
  entries: readonly WatchedEntry[],
  line: (entry: WatchedEntry) => string,
  maxLines: number,
): KnownBlock[] {
  const asked = entries.filter(
    ({ item, state }) => (item.kind === 'certificate' ? state.served : state.ct?.checkedAt) !== undefined,
  );
  if (asked.length === 0) return [];
  const attention = asked.filter(wantsAttention);
  const fine = asked.filter((entry) => !wantsAttention(entry));
  const summary = text.served.attentionFine({
    certificates: fine.filter((entry) => entry.item.kind === 'certificate').length,
    zones: fine.filter((entry) => entry.item.kind === 'domain').length,
  });
  if (attention.length === 0) return [context(summary)];
  // At most three blocks: the digest already uses up to 47 of a message's 50.
  const heading = text.served.attentionHeading({ count: attention.length });
  return [
    ...packLines([heading, ...attention.slice(0, maxLines).map(line)]).slice(0, 2),
    context(
      summary,
      ...(attention.length > maxLines
        ? [text.served.attentionMore({ count: attention.length - maxLines })]
        : []),
    ),
  ];
}
