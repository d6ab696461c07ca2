import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RegfishLimits } from '../../config.js';
import type { DnsClient } from '../../dns/client.js';
import type { TrustAnchor } from '../../dns/validator.js';
import type { BaseDeps } from '../../shared/deps.js';
import { packageVersion } from '../../shared/version.js';
import { text } from '../../text/index.js';
import type { ProductsCa } from '../diagnostics/caa.js';
import type { PlacedOrders } from '../diagnostics/service.js';
import { AvailabilityService } from '../domains/service.js';
import type { WorkspaceKeys } from '../keys/service.js';
import { type AskDeps, askTools } from './ask.js';
import { checkTools } from './checks.js';
import { type GuardDeps, ToolGuard } from './guard.js';
import { type ReadDeps, readTools } from './reads.js';
import { recordRequestTool } from './record-request.js';
import { type RequestDeps, requestTools } from './requests.js';
import type { Grant } from './store.js';
import { registerTools, type ToolSpec } from './tool.js';

/** What the tools are built from: the services' narrow parts (features/mcp declares, start/web.ts hands). */
export interface McpToolDeps extends BaseDeps, GuardDeps, ReadDeps, RequestDeps, AskDeps {
  limits: RegfishLimits;
  workspaceKeys: Pick<WorkspaceKeys, 'keyHashFor'>;
  limiter: GuardDeps['limiter'] & ConstructorParameters<typeof AvailabilityService>[0]['limiter'];
  dnsClient: DnsClient;
  productsCa: ProductsCa;
  trustAnchors: readonly TrustAnchor[];
  renewals: PlacedOrders;
}

/** Built once per deps object: tool specs hold no caller, only the services they read. */
const toolsOf = new WeakMap<McpToolDeps, { guard: ToolGuard; tools: ToolSpec[] }>();

function toolsFor(deps: McpToolDeps): { guard: ToolGuard; tools: ToolSpec[] } {
  const known = toolsOf.get(deps);
  if (known !== undefined) return known;
  const made = {
    guard: new ToolGuard(deps),
    tools: [
      ...readTools(deps),
      ...checkTools({
        availability: new AvailabilityService({ ...deps, limit: deps.limits.availability }),
        diagnostics: {
          dns: deps.dnsClient,
          ledger: deps.renewals,
          now: deps.now,
          productsCa: deps.productsCa,
          trustAnchors: deps.trustAnchors,
        },
      }),
      ...askTools(deps),
      ...requestTools(deps),
      recordRequestTool(deps),
    ],
  };
  toolsOf.set(deps, made);
  return made;
}

/** One MCP server for one request of one caller: its tools act as the grant's person. */
export function mcpServerFor(deps: McpToolDeps, grant: Grant): McpServer {
  const { guard, tools } = toolsFor(deps);
  const server = new McpServer(
    { name: 'regdesk', version: packageVersion() },
    { instructions: text.mcp.serverInstructions },
  );
  registerTools(server, guard, grant, tools);
  return server;
}
