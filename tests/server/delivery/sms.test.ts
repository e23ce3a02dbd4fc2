import { describe, expect, it } from 'vitest';
import { deliverySms } from '../../../server/delivery/messages.ts';

/** The delivery SMS's text: who it is from, whether a gift is inside, the link. */

const base = { publicUrl: 'https://greetie.se/', refId: 'abc_DEF-123' };

describe('deliverySms', () => {
  it('names the sender and says a gift is inside', () => {
    expect(deliverySms({ ...base, senderName: 'Anna Lind', hasGift: true })).toBe(
      'Anna Lind har skickat en greetie med en present till dig. Öppna: https://greetie.se/greetie/view/abc_DEF-123',
    );
  });

  it('without a gift says only that a greetie came', () => {
    expect(deliverySms({ ...base, senderName: 'Anna Lind', hasGift: false })).toBe(
      'Anna Lind har skickat en greetie till dig. Öppna: https://greetie.se/greetie/view/abc_DEF-123',
    );
  });

  it('never carries a name the name rule refuses (one saved before the rule): a link, a number, a bidi override', () => {
    for (const senderName of ['Swish: betalning nekad, verifiera på https://evil.example', 'Ring 070-123 45 67', 'greetie-support.se', 'Anna\u202eLind']) {
      const sms = deliverySms({ ...base, senderName, hasGift: true });
      expect(sms).toBe('Någon har skickat en greetie med en present till dig. Öppna: https://greetie.se/greetie/view/abc_DEF-123');
    }
  });

  it('a removed account (no name) reads "Någon"; white space inside a name is one space', () => {
    expect(deliverySms({ ...base, senderName: null, hasGift: false })).toMatch(/^Någon har skickat en greetie till dig\. /);
    expect(deliverySms({ ...base, senderName: '  Anna   Lind ', hasGift: false })).toMatch(/^Anna Lind har skickat/);
  });
});
