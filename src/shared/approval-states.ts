/** Maps an audit action of an approval request to the state it moved the request into. */
export const APPROVAL_STATE_OF_ACTION: Readonly<Record<string, string>> = {
  request: 'pending',
  approve: 'approved',
  deny: 'denied',
  withdraw: 'withdrawn',
  expire: 'expired',
  execute: 'executing',
  succeed: 'succeeded',
  fail: 'failed',
};
