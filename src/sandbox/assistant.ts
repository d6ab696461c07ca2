import { type Route, SandboxError } from './http.js';
import type { SandboxLimits, Windows } from './limits.js';

export const DASHBOARD_URL = 'https://dash.regfish.example';

interface Article {
  keywords: string[];
  /** Permission the article's account-specific part needs (docs/registrar-api.md §4.6), if any. */
  needs?: string;
  en: string;
  de?: string;
  sources: Array<{ title: string; url: string }>;
}

/** A small knowledge base; answers are Markdown with relative `/my/…` links like the real assistant's. */
const ARTICLES: Article[] = [
  {
    keywords: ['dnssec', 'ds', 'sign', 'signing'],
    en: '## Enabling DNSSEC\n\nIf your domain uses our nameservers, DNSSEC is **one click**: open [DNSSEC settings](/my/dns/dnssec) and choose *Enable*.\n\nFor external nameservers:\n1. Sign the zone at your DNS provider.\n2. Copy the `DS` record.\n3. Add it under [External DNSSEC](/my/dns/dnssec/external).\n\nActivation takes up to 48 hours while the registry converges.',
    de: '## DNSSEC aktivieren\n\nNutzt Ihre Domain unsere Nameserver, genügt **ein Klick** unter [DNSSEC](/my/dns/dnssec).',
    sources: [{ title: 'DNSSEC guide', url: '/my/help/dnssec' }],
  },
  {
    keywords: ['transfer', 'authcode', 'auth', 'authinfo', 'move'],
    en: '## Transferring a domain away\n\nRequest the transfer **auth code** under [Domain settings](/my/domains). Codes are limited to 3 per domain per day.\n\n> The domain guard must allow `authinfo` for the domain.',
    sources: [{ title: 'Outbound transfers', url: '/my/help/transfer-out' }],
  },
  {
    keywords: ['validation', 'dcv', 'cname', 'certificate', 'ssl', 'tls', 'pending'],
    needs: 'tls:read',
    en: '## Certificate validation\n\nPublish the `CNAME` records shown on the order, then wait: validation usually completes within minutes. Check the status under [Certificates](/my/tls).',
    sources: [{ title: 'Domain control validation', url: '/my/help/tls-dcv' }],
  },
  {
    keywords: ['renew', 'renewal', 'expire', 'expiry', 'auto-renew'],
    needs: 'domain:read',
    en: '## Renewals\n\nDomains with *auto-renew* on renew 30 days before expiry. Turn it on under [Domains](/my/domains).\n\n- Certificates are renewed by ordering with `renewal_of_certificate_id`.\n- Remaining validity may be carried over.',
    sources: [{ title: 'Renewals', url: '/my/help/renewals' }],
  },
  {
    keywords: ['invoice', 'billing', 'payment', 'price', 'cost'],
    needs: 'billing:read',
    en: '## Billing\n\nInvoices are under [Billing](/my/billing/invoices). Payment methods can be changed under [Payment](/my/billing/payment).',
    sources: [{ title: 'Billing FAQ', url: '/my/help/billing' }],
  },
  {
    keywords: ['nameserver', 'nameservers', 'delegation', 'vanity', 'ns'],
    en: '## Nameservers\n\nUse the standard nameservers or one of your **vanity sets** (`ns1.yourbrand.tld`). Change them under [Nameservers](/my/domains/nameservers).',
    sources: [{ title: 'Vanity nameservers', url: '/my/help/vanity-ns' }],
  },
  {
    keywords: ['record', 'records', 'zone', 'a', 'aaaa', 'mx', 'txt', 'ttl'],
    en: '## DNS records\n\nManage records under [DNS](/my/dns). TTLs range from 60 to 604800 seconds.\n\n```\nexample.com. 3600 IN A 192.0.2.10\n```',
    sources: [{ title: 'DNS records', url: '/my/help/dns-records' }],
  },
  {
    keywords: ['api', 'key', 'keys', 'token'],
    en: '## API keys\n\nCreate and scope keys under [API access](/my/account/api). Keys carry permissions such as `domain:read` and `tls:read`.',
    sources: [{ title: 'API keys', url: '/my/help/api-keys' }],
  },
];

const FALLBACK =
  "I could not find an article for that. Try the [help centre](/my/help) or rephrase with a keyword like 'DNSSEC' or 'transfer'.";

function answer(question: string, locale: string | undefined, permissions: Set<string>) {
  const words = new Set(question.toLowerCase().split(/[^\p{L}\p{N}:-]+/u));
  let best: Article | undefined;
  let score = 0;
  for (const article of ARTICLES) {
    const hits = article.keywords.filter((k) => words.has(k)).length;
    if (hits > score) {
      best = article;
      score = hits;
    }
  }
  if (best === undefined) return { text: FALLBACK, sources: [] as Article['sources'] };
  // Without the needed right, the account-specific part is left out instead of refusing (docs/registrar-api.md §4.6).
  const limited = best.needs !== undefined && !permissions.has(best.needs);
  const text = (locale?.startsWith('de') ? best.de : undefined) ?? best.en;
  return {
    text: limited
      ? `${text.split('\n\n')[0]}\n\n_(Account details omitted: this key lacks ${best.needs}.)_`
      : text,
    sources: best.sources,
  };
}

export interface AssistantOptions {
  limits: SandboxLimits;
  windows: Windows;
  answerMs: number;
}

/** Spec 4.6: one question at a time per account (503), per-key and per-account rates (429). */
export function assistantRoutes({ limits, windows, answerMs }: AssistantOptions): Route[] {
  const busy = new Set<string>();
  return [
    {
      method: 'GET',
      pattern: /^\/help\/search$/,
      operation: 'assistant.search',
      handler: async ({ query, key, now }) => {
        const q = query.get('q')?.trim() ?? '';
        if (q === '' || q.length > 4000) throw new SandboxError(400, 'Missing or invalid query');
        if (!key.permissions.has('assistant'))
          throw new SandboxError(403, 'Assistant not available for this credential or account');
        if (busy.has(key.account)) throw new SandboxError(503, 'Assistant busy, retry later');
        const allowed = windows.takeAll(
          [
            { key: `assistant-key:${key.key}`, ...limits.assistantKey },
            { key: `assistant-account:${key.account}`, ...limits.assistantAccount },
          ],
          now,
        );
        if (!allowed) throw new SandboxError(429, 'Too many questions', { 'retry-after': '60' });
        busy.add(key.account);
        try {
          await new Promise((resolve) => setTimeout(resolve, answerMs));
        } finally {
          busy.delete(key.account);
        }
        const { text, sources } = answer(q, query.get('locale') ?? undefined, key.permissions);
        const truncated = text.length > 6000;
        return {
          response: {
            question: q,
            answer: truncated ? text.slice(0, 6000) : text,
            truncated,
            sources,
            dashboard_url: DASHBOARD_URL,
          },
        };
      },
    },
  ];
}
