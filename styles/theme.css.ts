import { createGlobalTheme } from '@vanilla-extract/css';

/** The one theme: light, left to right, primary #ED5AA4, Quicksand, base radius 8. */
export const vars = createGlobalTheme(':root', {
  color: {
    primary: '#ED5AA4',
    primaryDark: '#B8307A',
    primaryText: '#A51F66',
    onPrimary: '#FFFFFF',
    primarySoft: '#FDE8F2',
    text: '#1F1A24',
    textMuted: '#5C5566',
    background: '#FFFFFF',
    surface: '#FAF7FB',
    border: '#E4DDE8',
    focus: '#6A1B9A',
    danger: '#B3261E',
    dangerSoft: '#FDECEA',
    success: '#1B6E3A',
    successSoft: '#E6F4EA',
    overlay: 'rgba(31, 26, 36, 0.5)',
  },
  font: {
    body: '"Quicksand", system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  },
  radius: { base: '8px', large: '16px', pill: '999px' },
  space: { xs: '4px', sm: '8px', md: '16px', lg: '24px', xl: '40px', xxl: '64px' },
  shadow: {
    card: '0 1px 2px rgba(31, 26, 36, 0.06), 0 4px 16px rgba(31, 26, 36, 0.08)',
    menu: '0 8px 24px rgba(31, 26, 36, 0.16)',
  },
});
