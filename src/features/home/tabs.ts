import type { AllMiddlewareArgs, App, SlackEventMiddlewareArgs } from '@slack/bolt';
import { dispatchOf } from '../../slack/dispatch.js';

type AppHomeOpened = SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs;
/** The App Home's tabs as `app_home_opened` names them (docs.slack.dev reference/events/app_home_opened). */
export type AppHomeTab = 'home' | 'messages';

const tabs = new WeakMap<App, Map<AppHomeTab, (args: AppHomeOpened) => Promise<void>>>();

/**
 * Slack sends one event, `app_home_opened`, whichever tab of the App Home a person opens, and names
 * the tab in `tab`. Each tab belongs to the feature that fills it: the Home tab to `home`, the
 * Messages tab (where people talk to the assistant, Slack's agent messaging) to `assistant`. The
 * dispatch takes one handler per event type: this routes the event by tab, registering it once.
 */
export function onAppHomeTab(
  app: App,
  tab: AppHomeTab,
  handler: (args: AppHomeOpened) => Promise<void>,
): void {
  let handlers = tabs.get(app);
  if (handlers === undefined) {
    const byTab = new Map<AppHomeTab, (args: AppHomeOpened) => Promise<void>>();
    tabs.set(app, byTab);
    handlers = byTab;
    dispatchOf(app).event('app_home_opened', async (args) => {
      await byTab.get(args.event.tab as AppHomeTab)?.(args);
    });
  }
  if (handlers.has(tab)) throw new Error(`app_home_opened for the ${tab} tab is registered twice`);
  handlers.set(tab, handler);
}
