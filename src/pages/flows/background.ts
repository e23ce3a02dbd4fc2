/**
 * States that no page shows: pure background work (a timer, a poll between reads, a picture made
 * on the side). Their panel says so instead of waiting for a picture. Keyed by machine id, then
 * the state's path below the machine's root (as the labels are).
 */
export const BACKGROUND: Readonly<Record<string, readonly string[]>> = {
  app: ['running', 'running.withoutVoucherStore', 'running.withVoucherStore'],
  toastTimer: ['counting', 'expired'],
  compose: ['editing.giftLimits', 'editing.giftLimits.known', 'editing.giftLimits.loading', 'editing.overlay', 'editing.overlay.current', 'editing.overlay.uploading'],
  payment: ['open.poll', 'open.poll.waiting', 'open.poll.reading'],
  refund: ['pending.waiting', 'pending.reading'],
  sandboxRefunds: ['showing.waiting', 'failed.waiting'],
  smsOutbox: ['showing.waiting', 'failed.waiting'],
  auth: ['unauthenticated.enteringCode.history'],
};

export const isBackground = (machineId: string, path: string) => BACKGROUND[machineId]?.includes(path) ?? false;
