import { execFileSync } from 'node:child_process';
import { ORDER_IDS } from '../../src/features/tls/ids.js';
import { inputActionId } from '../../src/slack/modal.js';

/** A fresh EC P-256 CSR for `subject` from openssl (the private key is thrown away at once). */
export function freshCsr(subject: string): string {
  const args = ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  args.push('-keyout', '/dev/null', '-subj', `/CN=${subject}`);
  return execFileSync('openssl', args, { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
}

const input = (blockId: string, value: Record<string, unknown>) => ({
  [blockId]: { [inputActionId(blockId)]: value },
});

/** The `/tls order` modal's state as Slack submits it: a RapidSSL order for `cn`, validated by DNS. */
export function orderModalValues(cn: string): Record<string, Record<string, unknown>> {
  return {
    ...input(ORDER_IDS.product, { type: 'static_select', selected_option: { value: 'RapidSSL' } }),
    ...input(ORDER_IDS.cn, { type: 'plain_text_input', value: cn }),
    ...input(ORDER_IDS.sans, { type: 'plain_text_input', value: '' }),
    ...input(ORDER_IDS.csr, { type: 'plain_text_input', value: freshCsr(cn) }),
    ...input(ORDER_IDS.dcv, { type: 'radio_buttons', selected_option: { value: 'dns-cname-token' } }),
  };
}
