/**
 * The same promise, its rejection marked as handled until someone awaits it: for work started at once
 * and awaited later, so that one part failing while another is awaited is no unhandled rejection
 * (the error still reaches whoever awaits it).
 */
export function settled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}
