import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { loadAllLocales } from '../../src/i18n.ts';

// The app loads a page's strings with its route (src/i18n.ts); tests render any page in any
// language at once, so every language's every namespace is loaded before them.
await loadAllLocales();

// Lazily loaded route chunks are transformed on first import; on a busy 2-core machine that can
// take longer than Testing Library's 1 s default. Waiting longer changes no assertion: a test
// still fails when what it waits for never appears.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
});
