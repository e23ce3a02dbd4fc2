import type { Approval } from '../../../charts/diff.ts';

/**
 * Every approval in docs/flows/approved (written by `npm run flows:approve`), in one small lazy
 * chunk: the machine list needs them all at once, and the chart never waits for them.
 */
const files = import.meta.glob<Approval>('../../../docs/flows/approved/*.json', { eager: true, import: 'default' });

export const approvals: Approval[] = Object.values(files);
