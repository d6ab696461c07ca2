/**
 * Agents through Regdesk (contract §3 "Agents (MCP)", docs/mcp.md): `/mcp` and its OAuth, started by
 * src/start/mcp.ts when served (loaded only then: the SDK and express cost a process without agents
 * nothing). The App Home's agents section is the home feature's (home/agents.ts), reading store.ts.
 */
export { createMcpEndpoint, type McpEndpoint, type McpEndpointDeps } from './http.js';
