import * as css from './shell.css.ts';

/** The Greetie mark: a gift-tag heart in the primary colour (inline, nothing to download). */
export function LogoMark() {
  return (
    <svg className={css.logoMark} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="#ED5AA4" />
      <path
        d="M16 24.5s-7.5-4.6-7.5-10.1A4.2 4.2 0 0 1 16 12a4.2 4.2 0 0 1 7.5 2.4c0 5.5-7.5 10.1-7.5 10.1Z"
        fill="#fff"
      />
    </svg>
  );
}
