import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * A Swedish mobile number in any form people type ("070-123 45 67", "+46 70 123 45 67",
 * "0046701234567") as E.164, or null when it is not one. The full metadata is needed to tell a
 * mobile number from a landline.
 */
export function normaliseSwedishMobile(input: string): string | null {
  const trimmed = input.trim().replace(/^00/, '+');
  if (!/^[+0-9][0-9 ()\-.]*$/.test(trimmed)) return null;
  const parsed = parsePhoneNumberFromString(trimmed, 'SE');
  if (!parsed || parsed.country !== 'SE' || !parsed.isValid()) return null;
  const type = parsed.getType();
  if (type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE') return null;
  return parsed.number;
}
