import type { Failure } from '../../../contract/errors.ts';
import type { GreetieView } from '../../../machines/greetieView.ts';
import { defineHooks } from '../harness/types.ts';

/** A delivered greetie with one gift, as a visitor who opened the SMS link sees it. */
export const publicView: GreetieView = {
  id: '8d3c1f2e-6a4b-4c5d-9e8f-0a1b2c3d4e5f',
  role: 'visitor',
  senderName: 'Anna',
  recipientName: 'Bo',
  message: 'Grattis på födelsedagen!',
  content: [{ type: 'emoji', value: '🎉', x: 0.5, y: 0.3, scale: 1, rotation: 0 }],
  media: { kind: 'photo', url: '/api/media/AAAAAAAAAAAAAAAAAAAAAA.webp', thumbnailUrl: null, overlayUrl: null },
  gifts: [
    { key: 'gift-0', voucherId: null, merchantName: 'Kanelbullen', productName: 'Fika för två', amount: 14900, isRedeemed: false, redeemedAt: null },
  ],
  deliveredAt: '2026-11-23T08:00:00.000Z',
  viewedAt: null,
  thanks: null,
};

const failure = (status: number, code: Failure['code'], message: string): { error: Failure } => ({ error: { status, code, message, retryAt: null } });

export default defineHooks({
  input: { key: 'AbCdEf123456', byId: false, reducedMotion: false },
  events: {
    'xstate.done.actor.loadGreetie': [{ output: publicView }],
    'xstate.error.actor.loadGreetie': [
      failure(404, 'GREETIE_NOT_FOUND', 'Greetien finns inte.'),
      failure(503, 'SERVICE_UNAVAILABLE', 'Tjänsten är inte tillgänglig just nu. Försök igen om en stund.'),
    ],
  },
});
