import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { installDomStubs, renderRoute } from './render.tsx';
import { createI18n, storageKey } from '../../../src/i18n.ts';

describe('languages', () => {
  beforeEach(() => {
    installDomStubs({ viewport: 'desktop' });
  });

  it('is Swedish by default, with <html lang="sv">', async () => {
    const i18n = createI18n();
    expect(i18n.language).toBe('sv');
    expect(document.documentElement.lang).toBe('sv');
  });

  it("switches to English from the header's language switch ('Språk'), keeps it in localStorage and sets <html lang>", async () => {
    const { user } = renderRoute('/');
    await screen.findByRole('heading', { level: 1, name: 'Skicka en hälsning med en riktig present\u00a0i' });
    const banner = screen.getByRole('banner');
    await user.selectOptions(within(banner).getByLabelText('Språk'), 'en');
    expect(await screen.findByRole('heading', { level: 1, name: 'Send a greeting with a real gift\u00a0inside' })).toBeInTheDocument();
    expect(within(banner).getByLabelText('Language')).toHaveValue('en');
    expect(localStorage.getItem(storageKey)).toBe('en');
    expect(storageKey).toBe('i18nextLng');
    expect(document.documentElement.lang).toBe('en');
    expect(within(banner).getByRole('link', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('remembers the choice on the next visit', () => {
    localStorage.setItem('i18nextLng', 'en');
    const i18n = createI18n();
    expect(i18n.language).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    localStorage.setItem('i18nextLng', 'fr');
    expect(createI18n().language).toBe('sv');
  });

  it('switches back to Swedish from the drawer on a small screen', async () => {
    installDomStubs({ viewport: 'mobile' });
    const { user } = renderRoute('/', { language: 'en' });
    await screen.findByRole('heading', { level: 1, name: 'Send a greeting with a real gift\u00a0inside' });
    await user.click(within(screen.getByRole('banner')).getByRole('button', { name: 'Open menu' }));
    const drawer = await screen.findByRole('dialog');
    await user.selectOptions(within(drawer).getByLabelText('Language'), 'sv');
    await waitFor(() => expect(document.documentElement.lang).toBe('sv'));
    expect(localStorage.getItem('i18nextLng')).toBe('sv');
    expect(within(drawer).getByLabelText('Språk')).toHaveValue('sv');
  });

  it("updates the document title to the page's title in the new language", async () => {
    const { user } = renderRoute('/start');
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(document.title).toBe('Kom igång med Greetie · Greetie'));
    await user.selectOptions(screen.getByLabelText('Språk'), 'en');
    await waitFor(() => expect(document.title).toBe('Get started with Greetie · Greetie'));
  });
});
