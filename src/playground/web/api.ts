import type { Chrome } from './chrome.js';
import type { ApiResult, PlaygroundEvent, PlaygroundSnapshot } from './protocol.js';

/** The page's calls to the playground server (paths in protocol.ts). */
const BASE = '/playground/api';

/** The workspace as the playground holds it; a failure is told in `words`. */
export async function getState(words: Chrome): Promise<PlaygroundSnapshot> {
  const response = await fetch(`${BASE}/state`, { headers: { accept: 'application/json' } });
  if (response.status === 403) {
    // The token is per process (docs/requirements.md R42): a restart leaves this tab's cookie behind.
    throw new Error(words.needsToken);
  }
  if (!response.ok) throw new Error(words.workspaceNotLoaded({ status: response.status }));
  return (await response.json()) as PlaygroundSnapshot;
}

/** POST a JSON body; a network failure or a non-JSON answer becomes `{ ok: false, error }`, told in `words`. */
export async function post<T extends ApiResult = ApiResult>(
  path: string,
  body: unknown,
  words: Chrome,
): Promise<T> {
  try {
    const response = await fetch(`${BASE}/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('application/json')) {
      return { ok: false, error: words.playgroundAnswered({ status: response.status }) } as T;
    }
    return (await response.json()) as T;
  } catch (error) {
    return { ok: false, error: words.playgroundSilent({ reason: String(error) }) } as T;
  }
}

/**
 * Server-sent events with reconnection. EventSource retries by itself after a dropped stream, but
 * gives up for good on an HTTP error (readyState CLOSED): then a new one is opened with backoff.
 * `onOpen` runs on every (re)connection so the page can reload the snapshot it may have missed.
 */
export function subscribe(
  onEvent: (event: PlaygroundEvent) => void,
  onOpen: () => void,
  onDown: () => void,
): () => void {
  let source: EventSource | undefined;
  let delay = 500;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const connect = () => {
    source = new EventSource(`${BASE}/events`);
    source.onopen = () => {
      delay = 500;
      onOpen();
    };
    source.onmessage = (message: MessageEvent<string>) => {
      try {
        onEvent(JSON.parse(message.data) as PlaygroundEvent);
      } catch {
        // A malformed line cannot be shown; the next snapshot reload brings the page back in step.
      }
    };
    source.onerror = () => {
      onDown();
      if (source?.readyState !== EventSource.CLOSED || stopped) return;
      timer = setTimeout(connect, delay);
      delay = Math.min(delay * 2, 10_000);
    };
  };
  connect();
  return () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    source?.close();
  };
}
