import { describe, expect, it } from 'vitest';
import { allMessageCodes, languageOf, translate } from '../../../server/i18n/index.ts';
import { registerServerMessages } from '../../../server/messages.ts';

// The registry is filled from above at start-up; buildApp does the same.
registerServerMessages();

describe('server messages', () => {
  it.each([
    [undefined, 'sv'],
    ['', 'sv'],
    ['sv-SE', 'sv'],
    ['en', 'en'],
    ['en-US,en;q=0.9', 'en'],
    ['sv,en;q=0.8', 'sv'],
    ['en;q=0.5,sv;q=0.9', 'sv'],
    ['fr-FR,fr;q=0.9,en;q=0.8', 'en'],
    ['de', 'sv'],
    ['en;q=0', 'sv'],
    ['*', 'sv'],
  ])('Accept-Language %j → %s', (header, lang) => {
    expect(languageOf(header)).toBe(lang);
  });

  it('has every message in Swedish and English', () => {
    for (const code of allMessageCodes()) {
      expect(translate(code, 'sv'), code).not.toBe('');
      expect(translate(code, 'en'), code).not.toBe('');
    }
  });

  it('fills placeholders', () => {
    expect(translate('RATE_LIMITED', 'sv', { retryAfter: 30 })).toBe('För många försök. Vänta 30 sekunder och försök igen.');
  });
});
