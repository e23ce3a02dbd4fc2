import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { installDomStubs, renderRoute } from './render.tsx';

describe('landing page (/)', () => {
  beforeEach(() => {
    installDomStubs({ viewport: 'mobile' });
  });

  it('says what Greetie is', async () => {
    renderRoute('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Skicka en hälsning med en riktig present\u00a0i' })).toBeInTheDocument();
    expect(screen.getByText(/foto eller en kort video/)).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Skicka en hälsning med en riktig present i · Greetie'));
  });

  it('never breaks its headline before the last word ("…present" / "i")', async () => {
    renderRoute('/');
    const h1 = await screen.findByRole('heading', { level: 1 });
    expect(h1.textContent).toMatch(/present\u00a0i$/);
  });

  it('explains how it works in three steps', async () => {
    renderRoute('/');
    const how = await screen.findByRole('region', { name: 'Så fungerar det' });
    const steps = within(how).getAllByRole('listitem');
    expect(steps).toHaveLength(3);
    expect(steps.map((s) => within(s).getByRole('heading').textContent)).toEqual([
      'Gör din hälsning',
      'Lägg i en present',
      'Skicka med sms',
    ]);
  });

  it('has a call to action to send a greetie and one to browse merchants', async () => {
    const { user, router } = renderRoute('/');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.getByRole('link', { name: 'Skicka en greetie' })).toHaveAttribute('href', '/greetie/new');
    expect(screen.getByRole('link', { name: 'Se handlare och presenter' })).toHaveAttribute('href', '/merchant');
    await user.click(screen.getByRole('link', { name: 'Se handlare och presenter' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/merchant'));
  });

  it('is there in English too', async () => {
    renderRoute('/', { language: 'en' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Send a greeting with a real gift\u00a0inside' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Send a greetie' })).toHaveAttribute('href', '/greetie/new');
    expect(screen.getByRole('region', { name: 'How it works' })).toBeInTheDocument();
  });
});

describe('get started (/start)', () => {
  beforeEach(() => {
    installDomStubs({ viewport: 'desktop' });
  });

  it('is a short page with its steps and the ways in', async () => {
    renderRoute('/start');
    expect(await screen.findByRole('heading', { level: 1, name: 'Kom igång med Greetie' })).toBeInTheDocument();
    expect(within(screen.getByRole('main')).getAllByRole('listitem')).toHaveLength(3);
    expect(screen.getByRole('link', { name: 'Skapa en greetie' })).toHaveAttribute('href', '/greetie/new');
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Logga in' })).toHaveAttribute('href', '/auth/jwt/login');
  });
});

describe('404', () => {
  beforeEach(() => {
    installDomStubs();
  });

  it('says the page is missing and offers the way home', async () => {
    renderRoute('/404');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sidan finns inte' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Sidan finns inte · Greetie'));
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Till startsidan' })).toHaveAttribute('href', '/');
  });
});
