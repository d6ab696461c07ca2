/** Only http(s) targets become links; a relative `/my/…` path is resolved against the dashboard. */
export function resolveLink(href: string, base: string): string | undefined {
  const against = href.startsWith('/') ? base : undefined;
  // canParse rather than catching: a throw costs ~10 µs, too slow for an answer full of `[a](b)`.
  if (!URL.canParse(href, against)) return undefined;
  const url = new URL(href, against);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : undefined;
}
