/**
 * A mobile number as Swedes write it: "+46701234567" → "070-123 45 67". Numbers that are not
 * Swedish mobile numbers in E.164 are shown as stored.
 */
export function formatMobileNumber(e164: string): string {
  const m = /^\+46(7\d)(\d{3})(\d{2})(\d{2})$/.exec(e164);
  return m ? `0${m[1]}-${m[2]} ${m[3]} ${m[4]}` : e164;
}
