/** The file inside the multipart body the Web API client uploads (files upload v2, `h.slack.uploads`). */
export function uploadedFile(raw: Buffer): string {
  const text = raw.toString('utf8');
  const boundary = text.slice(0, text.indexOf('\r\n'));
  const start = text.indexOf('\r\n\r\n') + 4;
  return text.slice(start, text.indexOf(`\r\n${boundary}`, start));
}
