import { resolveLink } from '../../slack/links.js';

/** An answer's link target as the URL to link to, or undefined: then only its label is shown. */
export type LinkResolver = (href: string) => string | undefined;

/**
 * Links in an answer may go only to the registrar's dashboard (the answer's `dashboard_url`) and to
 * the hosts the workspace's policy adds (`assistantLinkHosts`). The answer is data from outside
 * Regdesk: a link elsewhere, shown by the bot next to account data, could lead a reader to a
 * look-alike login page. Relative `/my/…` paths are made absolute against the dashboard; without a
 * dashboard URL they stay text.
 */
export function linkResolver(dashboardUrl: string | undefined, extraHosts: readonly string[]): LinkResolver {
  const hosts = new Set([dashboardUrl ?? '', ...extraHosts.map(asUrl)].flatMap(hostOf));
  const base = dashboardUrl ?? '';
  return (href) => {
    const url = resolveLink(href, base);
    return url !== undefined && hosts.has(new URL(url).hostname) ? url : undefined;
  };
}

/** A policy entry is a host (`docs.example.com`); a full URL is accepted for its host. */
const asUrl = (host: string) => (host.includes('://') ? host : `https://${host.trim()}`);

/** The URL parser's own form (lower case, punycode), so entries compare with what links carry. */
function hostOf(url: string): string[] {
  if (!URL.canParse(url)) return [];
  const { hostname } = new URL(url);
  return hostname === '' ? [] : [hostname];
}
