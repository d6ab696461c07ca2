import { describe, expect, it } from 'vitest';
import { parseManifest, readManifest } from '../../src/playground/manifest.js';

/**
 * The playground knows of the app what Slack knows: read from manifest.yml with the same YAML library
 * as `regdesk manifest` (its hand-written reader kept trailing comments and lost flow lists).
 */
describe('the playground’s reading of the manifest', () => {
  it('drops trailing comments and reads flow lists, quoting and block scalars as YAML does', () => {
    const manifest = parseManifest(`
display_information:
  name: Regdesk # the app
features:
  app_home:
    messages_tab_enabled: true   # people may write
  slash_commands:
    - command: /domain   # main
      description: "Domains: check, info # not a comment"
      usage_hint: 'check NAME | it''s fine'
    - { command: /dns, description: DNS }
  shortcuts:
    - name: Ask Regdesk about this
      type: message
      callback_id: assistant.ask_about_message
      description: >-
        Ask the registrar's
        assistant
    - { name: Global one, type: global, callback_id: g, description: not on messages }
settings:
  event_subscriptions:
    bot_events: [app_home_opened, message.im]
`);
    expect(manifest.commands).toEqual([
      {
        command: '/domain',
        description: 'Domains: check, info # not a comment',
        usageHint: "check NAME | it's fine",
      },
      { command: '/dns', description: 'DNS' },
    ]);
    expect(manifest.botEvents).toEqual(['app_home_opened', 'message.im']);
    expect(manifest.messagesTab).toBe(true);
    expect(manifest.messageShortcuts).toEqual([
      { name: 'Ask Regdesk about this', callbackId: 'assistant.ask_about_message' },
    ]);
  });

  it('refuses a manifest that is not YAML, or not a Slack app manifest, naming the problem', () => {
    expect(() => parseManifest('features: [unclosed')).toThrow(/not valid YAML/);
    expect(() => parseManifest('a: 1\na: 2\n')).toThrow(/not valid YAML/);
    expect(() => parseManifest('features:\n  slash_commands: yes\n')).toThrow(/not a Slack app manifest/);
  });

  it('reads manifest.yml itself: four commands, the message shortcut, the Messages tab and its events', () => {
    const manifest = readManifest();
    expect(manifest.commands.map((c) => c.command)).toEqual(['/domain', '/dns', '/tls', '/ask']);
    expect(manifest.commands.every((c) => c.description !== '' && !c.command.includes('#'))).toBe(true);
    expect(manifest.messageShortcuts.map((s) => s.callbackId)).toEqual(['assistant.ask_about_message']);
    expect(manifest.messagesTab).toBe(true);
    expect(manifest.botEvents).toEqual(
      expect.arrayContaining(['app_home_opened', 'message.im', 'app_mention']),
    );
  });
});
