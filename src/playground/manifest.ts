import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SlashCommandInfo } from './web/protocol.js';

/** What the playground takes from manifest.yml: what Slack itself would know of the app. */
export interface AppManifest {
  commands: SlashCommandInfo[];
  /** `settings.event_subscriptions.bot_events`: Slack delivers only these. */
  botEvents: string[];
  /** `features.app_home.messages_tab_enabled`: without it people cannot write to the app. */
  messagesTab: boolean;
}

/** The directory holding package.json, from this module in src/ (vitest) or in dist/src/ (built). */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above the playground module');
    dir = parent;
  }
  return dir;
}

export function readManifest(path = join(packageRoot(), 'manifest.yml')): AppManifest {
  return parseManifest(readFileSync(path, 'utf8'));
}

/**
 * Reads the three parts of the manifest the playground needs. The manifest is ours and small, and
 * `yaml` is only a development dependency, so this reads just its shape: `key: value` lines nested by
 * indentation and `- ` list items, with plain or quoted scalars.
 */
export function parseManifest(text: string): AppManifest {
  const commands: SlashCommandInfo[] = [];
  const botEvents: string[] = [];
  let messagesTab = false;
  const path: Array<{ indent: number; key: string }> = [];
  let current: Partial<SlashCommandInfo> | undefined;
  const flush = () => {
    if (current?.command !== undefined) {
      commands.push({
        command: current.command,
        description: current.description ?? '',
        ...(current.usageHint === undefined ? {} : { usageHint: current.usageHint }),
      });
    }
    current = undefined;
  };
  for (const rawLine of text.split('\n')) {
    const line = rawLine.replace(/\s+$/, '');
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const indent = line.length - line.trimStart().length;
    let body = line.trimStart();
    const item = body.startsWith('- ');
    if (item) body = body.slice(2);
    while (path.length > 0 && (path.at(-1)?.indent ?? 0) >= indent) path.pop();
    const where = path.map((entry) => entry.key).join('.');
    const pair = /^([A-Za-z_][\w-]*):(?:\s+(.*))?$/.exec(body);
    if (where === 'features.slash_commands' && item) flush();
    if (where === 'settings.event_subscriptions.bot_events' && item) botEvents.push(scalar(body));
    if (pair === null) continue;
    const [, key = '', value] = pair;
    if (where === 'features.slash_commands') {
      current ??= {};
      if (key === 'command') current.command = scalar(value ?? '');
      if (key === 'description') current.description = scalar(value ?? '');
      if (key === 'usage_hint') current.usageHint = scalar(value ?? '');
    }
    if (where === 'features.app_home' && key === 'messages_tab_enabled')
      messagesTab = scalar(value ?? '') === 'true';
    // A list item's own keys sit two columns right of its dash.
    if (value === undefined) path.push({ indent: item ? indent + 2 : indent, key });
  }
  flush();
  return { commands, botEvents, messagesTab };
}

function scalar(value: string): string {
  const trimmed = value.trim();
  if (/^".*"$/.test(trimmed)) return JSON.parse(trimmed) as string;
  if (/^'.*'$/.test(trimmed)) return trimmed.slice(1, -1).replace(/''/g, "'");
  return trimmed;
}
