import { style } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';
import { media } from '../../styles/tokens.ts';

/** Shared building blocks: the page container, buttons, form fields, visually hidden text. */

export const container = style({
  width: '100%',
  maxWidth: 1200,
  margin: '0 auto',
  padding: `0 ${vars.space.md}`,
  '@media': { [media.tablet]: { padding: `0 ${vars.space.lg}` } },
});

export const button = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  minHeight: 44,
  padding: `0 ${vars.space.lg}`,
  border: 'none',
  borderRadius: vars.radius.base,
  background: vars.color.primaryDark,
  color: vars.color.onPrimary,
  fontWeight: 700,
  textDecoration: 'none',
  cursor: 'pointer',
  selectors: { '&:hover': { background: vars.color.primaryText } },
});

export const buttonSecondary = style([
  button,
  {
    background: vars.color.background,
    color: vars.color.primaryText,
    boxShadow: `inset 0 0 0 2px ${vars.color.primary}`,
    selectors: { '&:hover': { background: vars.color.primarySoft } },
  },
]);

export const visuallyHidden = style({
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0, 0, 0, 0)',
  whiteSpace: 'nowrap',
  border: 0,
});

/** A field: label, box, hint and error one above the other (the profile, the catalogue's filters, the editor). */
export const formField = style({ display: 'grid', gap: vars.space.xs });
/** A field's hint under it (the compose steps, the editor). */
export const formHint = style({ color: vars.color.textMuted, fontSize: '0.875rem', margin: 0 });
/** A refused field or action, said in words (the profile and settings, the editor, the sandbox's SMS outbox). */
export const errorText = style({ margin: 0, color: vars.color.danger, fontWeight: 600 });

/** A field's label and its text box or select (the compose steps, the catalogue's filters). */
export const formLabel = style({ fontWeight: 700, fontSize: '0.9375rem' });
export const formInput = style({
  minHeight: 44,
  padding: `0 ${vars.space.md}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.base,
  background: vars.color.background,
  color: vars.color.text,
  width: '100%',
  font: 'inherit',
});

/** A failed load's message box and its title (the catalogue's pages, the sandbox's merchant codes). */
export const errorBox = style({
  padding: vars.space.lg,
  borderRadius: vars.radius.large,
  background: vars.color.dangerSoft,
  color: vars.color.danger,
  marginBottom: vars.space.md,
});
export const errorBoxTitle = style({ margin: `0 0 ${vars.space.xs}`, fontSize: '1.125rem' });

/**
 * A card that is a link (a greetie in the list, a merchant in the catalogue): raised on the page,
 * in the text's own colour, not underlined. Pages compose it with their own grid.
 */
export const linkCard = style({
  padding: vars.space.md,
  borderRadius: vars.radius.large,
  background: vars.color.background,
  boxShadow: vars.shadow.card,
  color: vars.color.text,
  textDecoration: 'none',
});

/** A Radix dialog's backdrop and its box, centred on the page (pages widen or lay out the box). */
export const dialogOverlay = style({ position: 'fixed', inset: 0, background: vars.color.overlay });
export const dialogBox = style({
  position: 'fixed',
  top: '50%',
  left: '50%',
  transform: 'translate(-50%, -50%)',
  width: 'min(90vw, 420px)',
  padding: vars.space.lg,
  borderRadius: vars.radius.large,
  background: vars.color.background,
  boxShadow: vars.shadow.menu,
});
