import { z } from 'zod';
import { text } from '../../text/index.js';
import { type DiagnosticsDeps, diagnose } from '../diagnostics/service.js';
import { type AvailabilityService, planCheck } from '../domains/service.js';
import { DomainName, type ToolSpec } from './tool.js';

/** Names one `domain_check` asks: the registrar's availability quota is the key's, shared with Slack. */
const MAX_CHECK_NAMES = 20;

export interface CheckDeps {
  availability: AvailabilityService;
  diagnostics: DiagnosticsDeps;
}

/** The two checks that ask the outside: availability at the registrar, live DNS (`/domain check`, `/dns check`). */
export function checkTools(deps: CheckDeps): ToolSpec[] {
  const domainCheck: ToolSpec<{ names: z.ZodArray<z.ZodString> }> = {
    name: 'domain_check',
    kind: 'read',
    act: 'lookup',
    description: () => text.mcp.domainCheckTool,
    // One name per entry: a space or comma would make one entry several names (planCheck splits on them).
    input: {
      names: z
        .array(
          z
            .string()
            .min(1)
            .max(253)
            .regex(/^[^\s,]+$/, 'one name'),
        )
        .min(1)
        .max(MAX_CHECK_NAMES),
    },
    output: {
      results: z.array(
        z.object({
          name: z.string(),
          state: z.enum(['available', 'taken', 'invalid', 'unknown']),
          status: z.string().optional(),
        }),
      ),
    },
    run: async ({ workspace, user }, { names }) => {
      const plan = planCheck(names.join(' '));
      const valid = plan.rows.filter((row) => row.name.ok).length;
      const check = await deps.availability.forWorkspace(workspace, user, Math.max(valid, 1));
      try {
        await check.check(plan.rows);
      } finally {
        await check.release();
      }
      return {
        results: plan.rows.map((row) => ({
          name: row.name.ok ? row.name.ascii : row.name.input,
          state: row.state.kind === 'waiting' ? 'unknown' : row.state.kind,
          ...(row.state.kind === 'taken' && row.state.status !== '' ? { status: row.state.status } : {}),
        })),
      };
    },
  };

  const dnsCheck: ToolSpec<{ domain: typeof DomainName }> = {
    name: 'dns_check',
    kind: 'read',
    act: 'lookup',
    description: () => text.mcp.dnsCheckTool,
    input: { domain: DomainName },
    output: {
      domain: z.string(),
      checkedAt: z.string(),
      findings: z.array(
        z.object({
          severity: z.string(),
          area: z.string(),
          code: z.string(),
          params: z.record(z.string(), z.unknown()),
        }),
      ),
      notChecked: z.array(z.record(z.string(), z.unknown())),
      delegation: z.object({ parentNs: z.array(z.string()), zoneNs: z.array(z.string()) }),
      dnssec: z.object({ verdict: z.string(), ds: z.array(z.string()) }),
    },
    target: (input) => input.domain,
    run: async ({ registrar, workspace }, { domain }) => {
      const report = await diagnose(deps.diagnostics, { registrar, workspace }, domain);
      return {
        domain: report.domain,
        checkedAt: new Date(report.checkedAt).toISOString(),
        findings: report.findings.slice(0, 50).map((finding) => ({
          severity: finding.severity,
          area: finding.area,
          code: finding.code,
          params: { ...(finding.params as Record<string, unknown>) },
        })),
        notChecked: report.notChecked.slice(0, 50).map((item) => ({ ...item.what })),
        delegation: { parentNs: report.delegation.parentNs, zoneNs: report.delegation.zoneNs },
        dnssec: { verdict: String(report.dnssec.verdict), ds: report.dnssec.ds.slice(0, 20) },
      };
    },
  };

  return [domainCheck, dnsCheck] as ToolSpec[];
}
