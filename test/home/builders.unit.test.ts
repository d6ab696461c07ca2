import { type HomeData, homeView, onboardingView, restrictedView } from '../../src/features/home/blocks.js';
import { runningJobsOf } from '../../src/features/home/running.js';
import { outsiderGroup } from '../../src/features/policy/outsiders.js';
import { text } from '../../src/text/index.js';
import { checkBuilders, DATES, type Entry } from '../helpers/builder-checks.js';
import {
  auditEntries,
  DAY,
  guestRefusal,
  KEY_SET,
  NOW,
  registrable,
  request,
  settings,
  watched,
} from '../helpers/builder-fixtures.js';

/**
 * Every Home view. Each is rendered in every language at the largest its inputs realistically get and checked
 * by test/helpers/builder-checks.ts (Block Kit limits, no outside markup, German differs, dates as tokens). A
 * builder added later is one line of `BUILDERS` here.
 */

/** The running lines as `runningJobsOf` writes them, from queues holding 12 jobs of each kind. */
async function running(): Promise<string[]> {
  const jobs = <T>(data: (i: number) => T, name: string) => ({
    getJobs: async () => Array.from({ length: 12 }, (_, i) => ({ name, data: data(i) })),
  });
  const lines = runningJobsOf(
    jobs((i) => ({ teamId: 'T0001', requestId: `apr_${String(i).padStart(16, '0')}` }), 'execute') as never,
    jobs(
      (i) => ({
        teamId: 'T0001',
        kind: i % 2 ? 'dnssec' : 'certificate',
        resource: registrable(i),
        attempt: 40,
      }),
      'follow',
    ) as never,
  );
  return lines({ teamId: 'T0001' });
}

async function homeData(): Promise<HomeData> {
  const coming = watched();
  return {
    key: KEY_SET,
    pending: Array.from({ length: 12 }, (_, i) => request('pending', `apr_${String(i).padStart(16, '0')}`)),
    running: await running(),
    recent: auditEntries(20),
    watch: { coming, settings: settings('wednesday'), next: NOW + DAY, now: NOW },
  };
}
const emptyHome: HomeData = { key: { state: 'missing' }, pending: [], running: [], recent: [] };

const BUILDERS: Entry[] = [
  ['home: full', 'home', () => homeData().then(homeView), DATES],
  ['home: empty', 'home', () => homeView(emptyHome)],
  ['home: onboarding, full', 'home', () => homeData().then(onboardingView), DATES],
  ['home: onboarding, empty', 'home', () => onboardingView({ ...emptyHome, key: { state: 'sandbox' } })],
  ['home: restricted (guest)', 'home', () => restrictedView(guestRefusal())],
  [
    'home: restricted (external)',
    'home',
    () =>
      restrictedView(
        text.approvals.outsiderCannot({ who: outsiderGroup('external'), act: text.approvals.actView }),
      ),
  ],
];

checkBuilders('home', BUILDERS);
