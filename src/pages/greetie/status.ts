import type { Greetie } from '../../../contract/greetie.ts';

/**
 * The status a person reads for a greetie (the `status.*` strings of the greetie namespace): its
 * progress from draft through payment and delivery, and 'viewed' once a delivered one was opened.
 */
export type StatusLabel = Greetie['status'] | 'viewed';

export function statusLabelOf(g: Pick<Greetie, 'status' | 'viewed'>): StatusLabel {
  return g.status === 'delivered' && g.viewed ? 'viewed' : g.status;
}
