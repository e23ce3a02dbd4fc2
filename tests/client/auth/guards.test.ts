import { describe, expect, it } from 'vitest';
import { loginPathFor, safeReturnTo } from '../../../src/app/guards.tsx';

describe('safeReturnTo: only same-site relative paths', () => {
  it.each([
    ['/greetie/new', '/greetie/new'],
    ['/voucher?tab=2#top', '/voucher?tab=2#top'],
    ['/redeem/abc?x=1&y=%2F%2F', '/redeem/abc?x=1&y=%2F%2F'],
  ])('follows %s', (value, expected) => {
    expect(safeReturnTo(value)).toBe(expected);
  });

  it.each(['//evil.com', 'https://evil.com', '/\\evil.com', '\\\\evil.com', 'evil.com', 'javascript:alert(1)', '/\t/evil.com', ' //evil.com', '', null, undefined])(
    'refuses %j',
    (value) => {
      expect(safeReturnTo(value)).toBeNull();
    },
  );

  it('builds the login path with the return path encoded', () => {
    expect(loginPathFor('/greetie/new?draft=1')).toBe('/auth/jwt/login?returnTo=%2Fgreetie%2Fnew%3Fdraft%3D1');
  });
});
