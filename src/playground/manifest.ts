import { loadAppManifest, manifestPath, parseAppManifest, type SlackAppManifest } from '../manifest.js';
import type { MessageShortcutInfo, SlashCommandInfo } from './web/protocol.js';

export { packageRoot } from '../manifest.js';

/** What the playground takes from manifest.yml: what Slack itself would know of the app. */
export interface PlaygroundManifest {
  commands: SlashCommandInfo[];
  /** `features.shortcuts` of type `message`: the entries of a message's "More actions" menu. */
  messageShortcuts: MessageShortcutInfo[];
  /** `settings.event_subscriptions.bot_events`: Slack delivers only these. */
  botEvents: string[];
  /** `features.app_home.messages_tab_enabled`: without it people cannot write to the app. */
  messagesTab: boolean;
}

/** manifest.yml, read with the same YAML loader as `regdesk manifest` (src/manifest.ts). */
export function readManifest(path = manifestPath()): PlaygroundManifest {
  return playgroundManifest(loadAppManifest(path));
}

/** A manifest's YAML text, as the playground sees it. */
export function parseManifest(text: string): PlaygroundManifest {
  return playgroundManifest(parseAppManifest(text));
}

function playgroundManifest(manifest: SlackAppManifest): PlaygroundManifest {
  const features = manifest.features;
  return {
    commands: (features?.slash_commands ?? []).map((command) => ({
      command: command.command,
      description: command.description,
      ...(command.usage_hint === undefined ? {} : { usageHint: command.usage_hint }),
    })),
    messageShortcuts: (features?.shortcuts ?? [])
      .filter((shortcut) => shortcut.type === 'message')
      .map((shortcut) => ({ name: shortcut.name, callbackId: shortcut.callback_id })),
    botEvents: [...(manifest.settings?.event_subscriptions?.bot_events ?? [])],
    messagesTab: features?.app_home?.messages_tab_enabled === true,
  };
}
