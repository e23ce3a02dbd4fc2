/**
 * States that no page shows: pure background work (a timer, a poll between reads, a region that
 * only keeps data). Their panel says so instead of showing a picture, and `npm run flows:shots`
 * writes them in its manifest as shown by no page, with the reason given here. Keyed by machine
 * id, then the state's path below the machine's root (as the labels are). The one place these
 * are declared.
 */
const POLL = 'the wait or the read between two polls; the page shows the list it already has';
const OPENING = "the page's first moment: it tells the machine what the address asks for as it mounts, before anything is drawn";

export const BACKGROUND: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  app: {
    running: 'the app itself: every page runs inside it',
    'running.session': "whether the session's code has loaded and runs; the header shows the session itself",
    'running.session.withoutSession': "whether the session's code has loaded and runs; the header shows the session itself",
    'running.session.withSession': "whether the session's code has loaded and runs; the header shows the session itself",
    'running.gifts': 'whether the signed-in store of vouchers runs; no page of its own',
    'running.gifts.withoutVoucherStore': 'whether the signed-in store of vouchers runs; no page of its own',
    'running.gifts.withVoucherStore': 'whether the signed-in store of vouchers runs; no page of its own',
  },
  toastTimer: {
    counting: "a toast's timer counting down; the toast itself is the toasts machine's",
    expired: "a toast's timer has run out; the toast goes",
  },
  compose: {
    opening: OPENING,
    'editing.giftLimits': 'the gift limits read beside the editor; the step shown is in editing.steps',
    'editing.giftLimits.known': 'the gift limits read beside the editor; the step shown is in editing.steps',
    'editing.giftLimits.loading': 'the gift limits read beside the editor; the step shown is in editing.steps',
    'editing.overlay': "the overlay picture's upload beside the editor; the step shown is in editing.steps",
    'editing.overlay.current': "the overlay picture's upload beside the editor; the step shown is in editing.steps",
    'editing.overlay.uploading': "the overlay picture's upload beside the editor; the step shown is in editing.steps",
  },
  payment: {
    opening: OPENING,
    'open.poll': 'the payment read again in the background while the Swish screen shows',
    'open.poll.waiting': 'the payment read again in the background while the Swish screen shows',
    'open.poll.reading': 'the payment read again in the background while the Swish screen shows',
  },
  refund: { 'pending.waiting': POLL, 'pending.reading': POLL },
  sandboxRefunds: { 'showing.waiting': POLL, 'failed.waiting': POLL },
  smsOutbox: { 'showing.waiting': POLL, 'failed.waiting': POLL },
  redeem: { validating: 'a check of the code on the phone that ends before the page is drawn again' },
  auth: { 'unauthenticated.enteringCode.history': 'a history state: it returns to the sub-state last shown and is never shown itself' },
};

/** Why no page shows this state, or undefined when a page does. */
export const backgroundReason = (machineId: string, path: string): string | undefined => BACKGROUND[machineId]?.[path];

export const isBackground = (machineId: string, path: string) => backgroundReason(machineId, path) !== undefined;
