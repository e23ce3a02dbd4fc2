import type { Greetie } from '../../../contract/greetie.ts';

/**
 * The status a person reads for a greetie (the `status.*` strings of the greetie namespace): its
 * progress from draft through payment and delivery, and 'viewed' once a delivered one was opened.
 */
export type StatusLabel = Greetie['status'] | 'viewed';

/**
 * The delivery line of a greetie's facts: 'Levererad' with the time once it is delivered;
 * 'Levereras' with the time chosen (or 'Direkt') while it is still to come; 'Planerad leverans'
 * for one that never got there (cancelled, or the delivery failed). `label` and `when` are keys
 * of the greetie namespace, or `at` a time to format.
 */
export function deliveryFactOf(g: Pick<Greetie, 'status' | 'deliverAt' | 'deliveredAt'>): { label: string; at: string | null; when: string | null } {
  if (g.deliveredAt) return { label: 'details.delivered', at: g.deliveredAt, when: null };
  const label = g.status === 'cancelled' || g.status === 'deliveryFailed' ? 'details.planned' : 'review.when';
  return g.deliverAt ? { label, at: g.deliverAt, when: null } : { label, at: null, when: 'review.now' };
}

export function statusLabelOf(g: Pick<Greetie, 'status' | 'viewed'>): StatusLabel {
  return g.status === 'delivered' && g.viewed ? 'viewed' : g.status;
}
