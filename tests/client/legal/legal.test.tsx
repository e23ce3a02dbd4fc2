import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { installDomStubs, renderRoute } from '../shell/render.tsx';
import { documents } from '../../../src/pages/legal/documents.ts';

/**
 * Köpvillkor (/villkor), integritetspolicy (/integritet) and tillgänglighetsredogörelse
 * (/tillganglighet) through the real route table, with
 * GET /api/seller answered at the edge like the server does.
 */
const seller = { name: 'Hälsningar i Norr AB', orgNumber: '556677-8899', email: 'hej@example.se' };

function stubSeller(reply: () => { status: number; body: unknown }) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      calls.push(url.pathname);
      const r = url.pathname === '/api/seller' ? reply() : { status: 404, body: { code: 'ROUTE_NOT_FOUND', message: 'Finns inte.' } };
      return new Response(JSON.stringify(r.body), { status: r.status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}

beforeEach(() => {
  installDomStubs();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the legal pages', () => {
  it('/villkor: the terms in Swedish, naming the seller from the settings, with contents and a mail link', async () => {
    stubSeller(() => ({ status: 200, body: seller }));
    renderRoute('/villkor');
    expect(await screen.findByRole('heading', { level: 1, name: 'Köpvillkor' })).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(await within(main).findByText(/Hälsningar i Norr AB \(organisationsnummer 556677-8899\)/)).toBeInTheDocument();
    for (const heading of ['Priser och betalning', 'Leverans', 'Giltighetstid', 'Ångerrätt', 'Avbeställning och återbetalning', 'Om något blir fel']) {
      expect(within(main).getByRole('heading', { level: 2, name: heading })).toBeInTheDocument();
      // The contents list links to each section.
      expect(within(screen.getByRole('navigation', { name: 'Innehåll' })).getByRole('link', { name: heading })).toHaveAttribute('href', expect.stringMatching(/^#/));
    }
    const mail = within(main).getAllByRole('link', { name: 'hej@example.se' });
    expect(mail[0]).toHaveAttribute('href', 'mailto:hej@example.se');
    expect(within(main).getByRole('link', { name: 'Läs vår integritetspolicy' })).toHaveAttribute('href', '/integritet');
    expect(within(main).getByRole('link', { name: 'Läs vår tillgänglighetsredogörelse' })).toHaveAttribute('href', '/tillganglighet');
    await waitFor(() => expect(document.title).toBe('Köpvillkor · Greetie'));
  });

  it('/villkor says plainly how long gifts are valid, when the right of withdrawal ends, and how cancelling and refunds work', async () => {
    stubSeller(() => ({ status: 200, body: seller }));
    renderRoute('/villkor');
    const section = (name: string) => screen.findByRole('region', { name }).then((r) => r.textContent ?? '');
    // Validity: each gift's own number of days, counted from delivery.
    const validity = await section('Giltighetstid');
    expect(validity).toMatch(/antal dagar.*skilja mellan gåvorna/);
    expect(validity).toMatch(/räknas från dagen då greetien levereras/);
    // Withdrawal: 14 days, the consent at checkout, and the end when the greetie is opened or a gift used.
    const withdrawal = await section('Ångerrätt');
    expect(withdrawal).toMatch(/14 dagars ångerrätt/);
    expect(withdrawal).toMatch(/godkänner du därför att leveransen börjar med en gång/);
    expect(withdrawal).toMatch(/ångerrätten upphör när mottagaren öppnar greetien eller använder en gåva/);
    expect(withdrawal).toMatch(/få tillbaka allt du har betalat, även när det har gått mer än 14 dagar/);
    // Cancelling: from the greetie's page while unopened, back to the Swish number, automatically after 60 days.
    const cancelling = await section('Avbeställning och återbetalning');
    expect(cancelling).toMatch(/inte har öppnat greetien kan du avbeställa den själv på greetiens sida/);
    expect(cancelling).toMatch(/med Swish till det nummer som betalade/);
    expect(cancelling).toMatch(/påminner vi hen med sms/);
    expect(cancelling).toMatch(/oöppnad 60 dagar efter leveransen avbeställer vi den och betalar tillbaka allt/);
    // The old promise (withdrawing single unredeemed gifts after the greetie was opened) is gone.
    expect(withdrawal).not.toMatch(/spärrar dem och betalar tillbaka deras värde/);
  });

  it('/tillganglighet: the accessibility statement, with the standard, the tests, the known faults, where to report and the authorities', async () => {
    stubSeller(() => ({ status: 200, body: seller }));
    renderRoute('/tillganglighet');
    expect(await screen.findByRole('heading', { level: 1, name: 'Tillgänglighetsredogörelse' })).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(await within(main).findByText(/Hälsningar i Norr AB \(organisationsnummer 556677-8899\) står bakom Greetie/)).toBeInTheDocument();
    for (const heading of ['Hur tillgänglig tjänsten är', 'Så har vi testat', 'Det här fungerar inte än', 'Säg till om något är svårt', 'Om du inte är nöjd']) {
      expect(within(main).getByRole('heading', { level: 2, name: heading })).toBeInTheDocument();
    }
    expect(within(main).getByRole('region', { name: 'Hur tillgänglig tjänsten är' })).toHaveTextContent(/WCAG\) 2\.1 på nivå AA/);
    expect(within(main).getByRole('region', { name: 'Så har vi testat' })).toHaveTextContent(/axe/);
    expect(within(main).getByRole('region', { name: 'Det här fungerar inte än' })).toHaveTextContent(/ingen för att pausa videon/);
    const report = within(main).getByRole('region', { name: 'Säg till om något är svårt' });
    expect(within(report).getByRole('link', { name: 'hej@example.se' })).toHaveAttribute('href', 'mailto:hej@example.se');
    const complain = within(main).getByRole('region', { name: 'Om du inte är nöjd' });
    expect(complain).toHaveTextContent(/Myndigheten för digital förvaltning \(DIGG\)/);
    expect(complain).toHaveTextContent(/Post- och telestyrelsen \(PTS\)/);
    expect(within(main).getByRole('link', { name: 'Läs våra köpvillkor' })).toHaveAttribute('href', '/villkor');
    expect(within(main).getByRole('link', { name: 'Läs vår integritetspolicy' })).toHaveAttribute('href', '/integritet');
    await waitFor(() => expect(document.title).toBe('Tillgänglighetsredogörelse · Greetie'));
  });

  it('/tillganglighet in English', async () => {
    stubSeller(() => ({ status: 200, body: seller }));
    renderRoute('/tillganglighet', { language: 'en' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Accessibility statement' })).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(await within(main).findByRole('heading', { level: 2, name: 'What does not work yet' })).toBeInTheDocument();
    expect(within(main).getByText(/WCAG\) 2\.1 at level AA/)).toBeInTheDocument();
  });

  it('/integritet in English: the privacy policy with the rights and the authority to complain to', async () => {
    stubSeller(() => ({ status: 200, body: seller }));
    renderRoute('/integritet', { language: 'en' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy policy' })).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(await within(main).findByText(/Hälsningar i Norr AB \(Swedish organisation number 556677-8899\) is the controller/)).toBeInTheDocument();
    expect(within(main).getByRole('heading', { level: 2, name: 'Your rights' })).toBeInTheDocument();
    expect(within(main).getByText(/IMY/)).toBeInTheDocument();
    expect(within(main).getByRole('link', { name: 'Read our terms of purchase' })).toHaveAttribute('href', '/villkor');
  });

  it('says so, and offers to try again, when the seller cannot be read', async () => {
    let fail = true;
    const calls = stubSeller(() => (fail ? { status: 503, body: { code: 'SERVICE_UNAVAILABLE', message: 'Tjänsten är inte tillgänglig just nu.' } } : { status: 200, body: seller }));
    const { user } = renderRoute('/villkor');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Vi kunde inte hämta uppgifterna om säljaren');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Försök igen' }));
    expect(await screen.findByText(/Hälsningar i Norr AB/)).toBeInTheDocument();
    expect(calls.filter((p) => p === '/api/seller')).toHaveLength(2);
  });

  it('the footer links the three pages', async () => {
    stubSeller(() => ({ status: 200, body: seller }));
    renderRoute('/villkor');
    const footer = await screen.findByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: 'Köpvillkor' })).toHaveAttribute('href', '/villkor');
    expect(within(footer).getByRole('link', { name: 'Integritetspolicy' })).toHaveAttribute('href', '/integritet');
    expect(within(footer).getByRole('link', { name: 'Tillgänglighet' })).toHaveAttribute('href', '/tillganglighet');
  });
});

describe('the legal documents', () => {
  it('have the same sections, lists and placeholders in Swedish and English, and no empty text', () => {
    const placeholders = (s: string) => (s.match(/\{[a-zA-Z]+\}/g) ?? []).sort();
    for (const doc of Object.values(documents)) {
      expect(doc.en.sections.map((s) => s.id)).toEqual(doc.sv.sections.map((s) => s.id));
      expect(placeholders(doc.en.intro)).toEqual(placeholders(doc.sv.intro));
      doc.sv.sections.forEach((sv, i) => {
        const en = doc.en.sections[i]!;
        expect(en.paragraphs.length, sv.id).toBe(sv.paragraphs.length);
        expect(en.list?.length, sv.id).toBe(sv.list?.length);
        const all = (s: typeof sv) => [s.heading, ...s.paragraphs, ...(s.list ?? [])];
        expect(all(en).flatMap(placeholders).sort(), sv.id).toEqual(all(sv).flatMap(placeholders).sort());
        for (const text of [...all(sv), ...all(en)]) expect(text.trim()).not.toBe('');
      });
    }
  });
});
