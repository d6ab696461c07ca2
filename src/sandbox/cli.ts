// `regdesk sandbox`: the command-line entry that runs the simulator alone.
import { createSandbox } from './server.js';
import type { Sandbox } from './types.js';

/** `regdesk sandbox [--port N] [--api-key KEY]`: the simulator alone, until SIGTERM/SIGINT. */
export async function runSandboxCli(
  opts: { port?: number; apiKey?: string },
  env: NodeJS.ProcessEnv,
  say: (line: string) => void,
): Promise<Sandbox> {
  const apiKey = opts.apiKey ?? env.REGFISH_SANDBOX_API_KEY;
  const sandbox = await createSandbox({
    port: opts.port ?? 4010,
    host: '0.0.0.0',
    ...(apiKey === undefined ? {} : { apiKey }),
  });
  const url = sandbox.url.replace('0.0.0.0', '127.0.0.1');
  say(`Registrar sandbox listening on ${url}`);
  if (apiKey === undefined) say(`Demo API key: ${sandbox.apiKey}`);
  say(
    `Try: curl -H 'x-api-key: ${apiKey === undefined ? sandbox.apiKey : '<your key>'}' ${url}/domains/example.com`,
  );
  return sandbox;
}
