import type { Button } from '@slack/types';
import { text } from '../text/index.js';
import { button } from './blocks.js';

/**
 * The "Watch" button on domain and certificate cards. The watches feature handles it, but the cards
 * belong to the domains and tls features, which the watches feature builds on (its alerts offer tls's
 * Renew and Reissue): the button lives here, below all three, so no feature imports upward.
 */
export const WATCH_BUTTON_IDS = {
  /** Value: the domain's ASCII name. */
  domain: 'watch.add.domain',
  /** Value: the certificate's id. */
  certificate: 'watch.add.certificate',
} as const;

/** `label` names the target for screen readers (the button repeats down lists and channels). */
export function watchButton(kind: keyof typeof WATCH_BUTTON_IDS, value: string, label: string): Button {
  return button(text.slack.watchButton, WATCH_BUTTON_IDS[kind], value, undefined, label);
}
