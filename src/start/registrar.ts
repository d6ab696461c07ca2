import type { Config } from '../config.js';
import type { Sandbox } from '../sandbox/index.js';
import type { Registrar } from '../services.js';
import type { StartContext } from './context.js';

export interface StartedRegistrar {
  registrar: Registrar;
  /** The embedded registrar simulator, when one runs in this process. */
  sandbox?: Sandbox;
}

/** The registrar this process talks to: the configured one, or a simulator embedded in this process. */
export async function startRegistrar(ctx: StartContext, config: Config): Promise<StartedRegistrar> {
  ctx.step('registrar');
  if (config.registrar.kind !== 'embedded-sandbox') {
    // The demo key stands in for a missing workspace key only in sandbox mode.
    return {
      registrar: {
        baseUrl: config.registrar.apiUrl,
        sandboxKey: config.registrar.sandbox ? config.registrar.sandboxApiKey : undefined,
      },
    };
  }
  // Each process embeds its own simulator; scaled-out processes share one via `regdesk sandbox`.
  // Imported here: processes against a real registrar never load the simulator.
  const { createSandbox } = await import('../sandbox/index.js');
  const embedded = await createSandbox({ logger: ctx.logger });
  ctx.closers.push('sandbox', () => embedded.close());
  if (ctx.role !== 'start')
    ctx.say('Note: this process embeds its own registrar sandbox; for shared state run `regdesk sandbox`.');
  return { registrar: { baseUrl: embedded.url, sandboxKey: embedded.apiKey }, sandbox: embedded };
}
