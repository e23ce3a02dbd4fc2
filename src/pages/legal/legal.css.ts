import { style } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';
import { container } from '../../components/ui.css.ts';

/** A long text to read: one readable column (about 70 characters), generous line height. */
export const page = style([container, { maxWidth: 760, paddingTop: vars.space.lg, paddingBottom: vars.space.xxl }]);

export const title = style({ margin: `0 0 ${vars.space.xs}`, fontSize: 'clamp(1.75rem, 6vw, 2.5rem)', lineHeight: 1.15, outline: 'none' });

export const updated = style({ margin: `0 0 ${vars.space.lg}`, color: vars.color.textMuted, fontSize: '0.9375rem' });

export const intro = style({ fontSize: '1.125rem', lineHeight: 1.6, margin: `0 0 ${vars.space.lg}` });

export const contents = style({
  padding: vars.space.md,
  borderRadius: vars.radius.large,
  background: vars.color.surface,
  marginBottom: vars.space.xl,
});

export const contentsTitle = style({ margin: `0 0 ${vars.space.sm}`, fontSize: '1rem' });

export const contentsList = style({ margin: 0, paddingLeft: '1.25em', lineHeight: 1.8 });

export const section = style({ marginBottom: vars.space.lg, scrollMarginTop: vars.space.xl });

export const heading = style({ margin: `0 0 ${vars.space.sm}`, fontSize: '1.25rem', lineHeight: 1.3 });

export const text = style({ margin: `0 0 ${vars.space.sm}`, lineHeight: 1.65 });

export const list = style({ margin: `0 0 ${vars.space.sm}`, paddingLeft: '1.25em', lineHeight: 1.65, display: 'grid', gap: vars.space.xs });

export const link = style({ color: vars.color.primaryText, fontWeight: 700 });

export const status = style({ color: vars.color.textMuted });
