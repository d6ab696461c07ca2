import type { SlackState } from './state.js';
import type { StandInMessage } from './types.js';

/** `files.getUploadURLExternal`: the bytes are then posted to `upload_url` (see `receiveUpload`). */
export function uploadUrl(state: SlackState, args: Record<string, unknown>): unknown {
  const id = `F${state.seq++}`;
  const path = `/upload/${id}`;
  state.pendingUploads.set(id, { name: String(args.filename ?? 'file'), path });
  return { ok: true, upload_url: `${state.url}${path}`, file_id: id };
}

/** The bytes of an upload arrived at `path` (`/upload/<file id>`). */
export function receiveUpload(state: SlackState, path: string, raw: Buffer): void {
  state.uploads.set(path, raw);
  const id = path.slice('/upload/'.length);
  const pending = state.pendingUploads.get(id);
  if (pending !== undefined) state.files.set(id, { id, name: pending.name, bytes: raw });
  state.record({ method: 'file_upload', args: { path, size: raw.length }, at: Date.now() });
}

/** `files.completeUploadExternal`: shares the uploaded files in a channel, as one message. */
export function completeUpload(state: SlackState, args: Record<string, unknown>): unknown {
  const channel = String(args.channel_id ?? args.channel ?? '');
  const refusal = state.postRefusal(channel);
  if (refusal !== undefined) return { ok: false, error: refusal };
  const listed = Array.isArray(args.files) ? (args.files as Array<Record<string, unknown>>) : [];
  if (listed.length === 0) return { ok: false, error: 'invalid_arguments' };
  const ids = listed.map((entry) => String(entry.id ?? ''));
  // Slack refuses to complete an upload whose bytes never arrived.
  if (ids.some((id) => !state.files.has(id))) return { ok: false, error: 'file_not_found' };
  listed.forEach((entry, i) => {
    const file = state.files.get(ids[i] ?? '');
    if (file !== undefined && typeof entry.title === 'string') file.title = entry.title;
  });
  for (const id of ids) state.pendingUploads.delete(id);
  const message: StandInMessage = { channel, ts: state.nextTs(), files: ids };
  if (typeof args.initial_comment === 'string') message.text = args.initial_comment;
  if (typeof args.thread_ts === 'string') message.threadTs = args.thread_ts;
  state.store(message);
  return { ok: true, files: ids.map((id) => ({ id, title: state.files.get(id)?.title ?? id })) };
}
