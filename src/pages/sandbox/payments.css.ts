import { style } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';

/** The payer's answers to one pending payment: side by side from the start, wrapping on a phone. */
export const answers = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm });
