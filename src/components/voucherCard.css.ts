import { style } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';
import { linkCard } from './ui.css.ts';

/** A voucher in a list ("Mina gåvor", the till's list, a greetie's gifts): logo, what, how much, until when. */

export const card = style([
  linkCard,
  {
    display: 'grid',
    gridTemplateColumns: '56px 1fr auto',
    alignItems: 'center',
    gap: vars.space.md,
    minHeight: 88,
    selectors: {
      'a&:hover': { boxShadow: `inset 0 0 0 2px ${vars.color.primary}, ${vars.shadow.card}` },
    },
  },
]);

/** A used or expired voucher: greyed, still readable (contrast stays AA: the text keeps its colour, the logo fades). */
export const spent = style({ background: vars.color.surface, boxShadow: 'none', border: `1px solid ${vars.color.border}` });

export const logo = style({ width: 56, height: 56, borderRadius: vars.radius.base, objectFit: 'contain', background: vars.color.surface });
export const logoSpent = style({ filter: 'grayscale(1)', opacity: 0.6 });

export const body = style({ display: 'grid', gap: 2, minWidth: 0 });
export const merchant = style({ margin: 0, fontSize: '0.875rem', color: vars.color.textMuted, fontWeight: 700 });
export const product = style({ margin: 0, fontSize: '1.0625rem', fontWeight: 700, overflowWrap: 'anywhere' });
export const description = style({ margin: 0, fontSize: '0.9375rem', overflowWrap: 'anywhere' });
export const meta = style({ margin: 0, fontSize: '0.875rem', color: vars.color.textMuted });
export const balance = style({ margin: 0, fontSize: '0.875rem', color: vars.color.text, fontWeight: 700 });
export const metaSpent = style({ margin: 0, fontSize: '0.875rem', color: vars.color.text, fontWeight: 600 });

export const amount = style({ fontWeight: 700, fontSize: '1.125rem', whiteSpace: 'nowrap' });
export const amountSpent = style({ color: vars.color.textMuted });
