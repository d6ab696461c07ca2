/**
 * What Regdesk takes from BullMQ beyond Queue and Worker, through the package's public entry point
 * (docs/architecture.md: libraries through their front doors).
 */
export { DelayedError, defaultRepeatStrategy } from 'bullmq';
