import { describe, expect, it } from 'vitest';
import { readManifest } from '../../src/playground/manifest.js';
import { chromeFor } from '../../src/playground/web/chrome.js';
import { commandsIn, completions, usageFor } from '../../src/playground/web/store.js';
import { englishWords } from '../helpers/english-words.js';

/**
 * The composer's slash-command completion in the member's language (issue #47): manifest.yml speaks
 * English only, so a German member reads the playground's own German words for Regdesk's commands.
 */

const manifest = readManifest().commands;
const english = commandsIn(chromeFor('en-US'), manifest);
const german = commandsIn(chromeFor('de-DE'), manifest);

describe('the composer’s commands', () => {
  it('are the manifest’s, as written, for an English member, then Slack’s own', () => {
    expect(english.slice(0, manifest.length)).toEqual(manifest);
    expect(english.map((c) => c.command)).toEqual([...manifest.map((c) => c.command), '/invite', '/remove']);
  });

  it.each(manifest.map((c) => [c.command]))('%s has German words for a German member', (name) => {
    const command = german.find((c) => c.command === name);
    const original = manifest.find((c) => c.command === name);
    expect(command?.description).not.toBe(original?.description);
    expect(englishWords(`${command?.description} ${command?.usageHint ?? ''}`)).toEqual([]);
  });

  it('shows the German words in the completion list and the usage hint', () => {
    expect(completions(german, '/d').map((c) => [c.command, c.description])).toEqual([
      ['/domain', expect.stringContaining('Verfügbarkeit')],
      ['/dns', 'DNS-Zonen, DNS-Einträge, DNSSEC und Live-Prüfungen'],
    ]);
    expect(usageFor(german, '/ask ')?.usageHint).toBe('Wie aktiviere ich DNSSEC für meine Domain?');
    expect(german.find((c) => c.command === '/invite')?.description).toBe(
      'Jemanden zu diesem Channel hinzufügen',
    );
  });

  it('keeps a command the German words do not know as the manifest has it', () => {
    const extra = { command: '/whois', description: 'Who holds a name', usageHint: 'DOMAIN' };
    expect(commandsIn(chromeFor('de-DE'), [extra])[0]).toEqual(extra);
  });
});
