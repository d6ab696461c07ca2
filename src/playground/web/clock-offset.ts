import type { Chrome } from './chrome.js';

const HOUR = 3_600_000;

/** How far the simulator's clock is ahead of real time, in the member's words (`1 d 2 h ahead`). */
export function formatOffset(ms: number, words: Chrome): string {
  if (ms <= 0) return words.realTime;
  const days = Math.floor(ms / (24 * HOUR));
  const hours = Math.floor((ms % (24 * HOUR)) / HOUR);
  const minutes = Math.floor((ms % HOUR) / 60_000);
  const { day, hour, minute, underAMinute } = words.units;
  const parts = [
    days > 0 ? `${days} ${day}` : '',
    hours > 0 ? `${hours} ${hour}` : '',
    minutes > 0 ? `${minutes} ${minute}` : '',
  ];
  return words.ahead({ offset: parts.filter(Boolean).join(' ') || underAMinute });
}
