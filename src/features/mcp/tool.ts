import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Act } from '../policy/permissions.js';
import type { ToolContext, ToolGuard, ToolKind } from './guard.js';
import type { Grant } from './store.js';

/**
 * One tool as data: its zod input and output shapes (the SDK publishes them as JSON Schema and checks
 * both), what the person needs to be allowed, and its work. The guard runs every call (guard.ts).
 */
export interface ToolSpec<In extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  kind: ToolKind;
  act: Act;
  description: () => string;
  input: In;
  output: z.ZodRawShape;
  /** The domain or certificate the call is about, for the audit entry. */
  target?(input: z.infer<z.ZodObject<In>>): string | undefined;
  run(ctx: ToolContext, input: z.infer<z.ZodObject<In>>): Promise<Record<string, unknown>>;
}

/** A domain name as a tool takes it: letters of any script, digits, dots and hyphens. */
export const DomainName = z
  .string()
  .trim()
  .toLowerCase()
  .min(3)
  .max(253)
  .regex(/^[\p{L}\p{N}][\p{L}\p{N}.-]*\.[\p{L}\p{N}-]+\.?$/u, 'a domain name');

/** A time as ISO 8601 under `name`, or nothing when there is none. */
export function iso<K extends string>(name: K, ms: number | undefined): { [P in K]?: string } {
  return (ms === undefined ? {} : { [name]: new Date(ms).toISOString() }) as { [P in K]?: string };
}

/** Registers each tool for one caller: every call goes through the guard as that caller's grant. */
export function registerTools(
  server: McpServer,
  guard: ToolGuard,
  grant: Grant,
  tools: readonly ToolSpec[],
): void {
  for (const spec of tools) {
    server.registerTool(
      spec.name,
      {
        description: spec.description(),
        inputSchema: spec.input,
        outputSchema: spec.output,
        annotations: { readOnlyHint: spec.kind === 'read', destructiveHint: false, openWorldHint: false },
      },
      async (input: Record<string, unknown>) =>
        guard.call(grant, {
          name: spec.name,
          kind: spec.kind,
          act: spec.act,
          target: spec.target?.(input as never),
          run: (ctx) => spec.run(ctx, input as never),
        }),
    );
  }
}
