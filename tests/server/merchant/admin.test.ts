import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../helpers.ts';
import { runAdmin, kronorToOre, EXIT } from '../../../server/admin/commands.ts';
import { resolveTarget } from '../../../server/admin/connection.ts';
import { removeDataDir } from '../../../server/db/datadir.ts';
import { verifyMerchantCode } from '../../../server/merchant/code.ts';
import { findMerchantCodeHash } from '../../../server/merchant/queries.ts';
import { demoMerchants } from '../../../server/merchant/seed.ts';
import type { Merchant, Product } from '../../../contract/merchant.ts';

/**
 * The operator's command line against a test database: most cases in-process through runAdmin
 * (same code as the binary), and the binary itself spawned with DATABASE_URL for exit codes,
 * stdin and output.
 */

interface Result {
  code: number;
  out: string;
  err: string;
}

describe('npm run admin', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  async function admin(args: string[], opts: { stdin?: string; lang?: string } = {}): Promise<Result> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(args, {
      env: { LANG: opts.lang ?? 'sv_SE.UTF-8' },
      readStdin: async () => opts.stdin,
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      openDb: async () => ({ db: t.db.db, close: async () => {} }),
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  const get = (url: string) => t.app.inject({ method: 'GET', url });
  const addArgs = ['merchant', 'add', '--name', 'Sylt & Saft', '--category', 'shopping', '--sources', 'InStore,Code', '--logo-url', '/merchants/form.svg'];

  it('merchant add creates a merchant the API shows at once; the code is stored hashed and never printed', async () => {
    await get('/api/merchant'); // warm the cache: the change below must empty it
    const res = await admin([...addArgs, '--description', 'Hemkokt sylt från Skåne.', '--website', 'https://sylt.example', '--code', 'SYLT4455']);
    expect(res.err).toBe('');
    expect(res.code).toBe(EXIT.ok);
    expect(res.out).not.toMatch(/SYLT4455/i);
    const created = JSON.parse(res.out) as { id: string; active: boolean };
    expect(created).toMatchObject({ name: 'Sylt & Saft', category: 'shopping', sources: ['InStore', 'Code'], active: true, website: 'https://sylt.example' });
    const list = (await get('/api/merchant')).json() as Merchant[];
    expect(list.map((m) => m.name)).toContain('Sylt & Saft');
    expect(await verifyMerchantCode('sylt4455', (await findMerchantCodeHash(t.db.db, created.id))!)).toBe(true);
  });

  it('merchant add reads the code from stdin when --code is not given', async () => {
    const res = await admin(['merchant', 'add', '--name', 'Stdin-butiken', '--category', 'books', '--sources', 'Code', '--logo-url', '/merchants/x.svg'], {
      stdin: 'STDIN7788\n',
    });
    expect(res.code).toBe(EXIT.ok);
    const { id } = JSON.parse(res.out) as { id: string };
    expect(await verifyMerchantCode('STDIN7788', (await findMerchantCodeHash(t.db.db, id))!)).toBe(true);
  });

  it('refuses bad input like the API does, naming each flag in Swedish, changing nothing (exit 2)', async () => {
    const before = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM merchant`.execute(t.db.db)).rows[0]!.n;
    const res = await admin(['merchant', 'add', '--name', '', '--category', 'pizza', '--sources', 'Cash', '--logo-url', 'javascript:alert(1)', '--code', 'x!']);
    expect(res.code).toBe(EXIT.badInput);
    expect(res.out).toBe('');
    expect(res.err).toContain('Fel: Några uppgifter saknas eller är felaktiga.');
    for (const flag of ['--name', '--category', '--sources', '--logo-url', '--code']) expect(res.err).toContain(flag);
    expect(res.err).not.toContain('x!');
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM merchant`.execute(t.db.db)).rows[0]!.n).toBe(before);
  });

  it('speaks English when LANG is English', async () => {
    const res = await admin(['merchant', 'deactivate', '00000000-0000-4000-8000-000000000000'], { lang: 'en_US.UTF-8' });
    expect(res.code).toBe(EXIT.notFound);
    expect(res.err).toBe('Error: There is no such merchant.');
    const flagged = await admin(['merchant', 'deactivate', '00000000-0000-4000-8000-000000000000', '--lang', 'en']);
    expect(flagged.err).toBe('Error: There is no such merchant.');
  });

  it('unknown commands, options and malformed ids are usage errors (exit 2); help prints the usage (exit 0)', async () => {
    const unknown = await admin(['merchant', 'explode']);
    expect(unknown.code).toBe(EXIT.badInput);
    expect(unknown.err).toContain('Okänt kommando "merchant explode".');
    expect(unknown.err).toContain('Användning: npm run admin');
    expect((await admin(['merchant', 'add', '--colour', 'red'])).code).toBe(EXIT.badInput);
    const badId = await admin(['merchant', 'update', 'not-a-uuid', '--name', 'X']);
    expect(badId.code).toBe(EXIT.badInput);
    expect((await admin(['merchant', 'update'])).err).toBe('Fel: Ange id för handlaren.');
    const help = await admin(['help']);
    expect(help.code).toBe(EXIT.ok);
    expect(help.out).toContain('merchant set-code <id> [kod]');
  });

  it('merchant update changes fields; update without changes is refused', async () => {
    const cafe = demoMerchants[0]!;
    const res = await admin(['merchant', 'update', cafe.id, '--description', 'Nytt: vi har öppet på söndagar.', '--website', '']);
    expect(res.code).toBe(EXIT.ok);
    expect(JSON.parse(res.out)).toMatchObject({ id: cafe.id, website: null, description: 'Nytt: vi har öppet på söndagar.' });
    expect((await get(`/api/merchant/${cafe.id}`)).json()).toMatchObject({ website: null, description: 'Nytt: vi har öppet på söndagar.' });
    const empty = await admin(['merchant', 'update', cafe.id]);
    expect(empty.code).toBe(EXIT.badInput);
    expect(empty.err).toContain('ange minst en ändring');
  });

  it('a merchant cannot drop a source its products still use (exit 4)', async () => {
    const cafe = demoMerchants[0]!; // InStore and Code products
    const res = await admin(['merchant', 'update', cafe.id, '--sources', 'InStore']);
    expect(res.code).toBe(EXIT.conflict);
    expect(res.err).toContain('Gåvotypen Code används av produkter hos handlaren.');
  });

  it('merchant set-code replaces the code, reading it from an argument or stdin, and prints only "updated"', async () => {
    const m = demoMerchants[2]!;
    const fromArg = await admin(['merchant', 'set-code', m.id, 'NEWCODE11']);
    expect(fromArg).toEqual({ code: EXIT.ok, out: 'updated', err: '' });
    expect(await verifyMerchantCode('NEWCODE11', (await findMerchantCodeHash(t.db.db, m.id))!)).toBe(true);
    expect(await verifyMerchantCode(m.merchantCode, (await findMerchantCodeHash(t.db.db, m.id))!)).toBe(false);
    const fromStdin = await admin(['merchant', 'set-code', m.id], { stdin: 'PIPED2222\n' });
    expect(fromStdin).toEqual({ code: EXIT.ok, out: 'updated', err: '' });
    expect(await verifyMerchantCode('PIPED2222', (await findMerchantCodeHash(t.db.db, m.id))!)).toBe(true);
    const bad = await admin(['merchant', 'set-code', m.id, 'no spaces allowed']);
    expect(bad.code).toBe(EXIT.badInput);
    expect(bad.err).not.toContain('no spaces allowed');
    expect((await admin(['merchant', 'set-code', m.id])).err).toBe('Fel: Ange koden som argument eller skicka den på stdin.');
  });

  it('product add, update and remove keep the rules: price or range, min ≤ max, a source the merchant offers', async () => {
    const books = demoMerchants.find((m) => m.category === 'books')!;
    const add = await admin(['product', 'add', '--merchant', books.id, '--name', 'Ljudbok', '--source', 'Code', '--price', '99,50', '--valid-days', '365']);
    expect(add.code).toBe(EXIT.ok);
    const product = JSON.parse(add.out) as { id: string; price: number };
    expect(product).toMatchObject({ price: 9950, minAmount: null, maxAmount: null, source: 'Code' });
    let products = (await get(`/api/merchant/${books.id}/products`)).json() as Product[];
    expect(products[0]).toMatchObject({ id: product.id, name: 'Ljudbok', price: 9950 });

    // A range replaces the fixed price.
    const ranged = await admin(['product', 'update', product.id, '--min', '100', '--max', '1 000']);
    expect(ranged.code).toBe(EXIT.ok);
    expect(JSON.parse(ranged.out)).toMatchObject({ price: null, minAmount: 10000, maxAmount: 100000 });

    const both = await admin(['product', 'add', '--merchant', books.id, '--name', 'X', '--source', 'Code', '--price', '10', '--min', '5', '--max', '50', '--valid-days', '30']);
    expect(both.code).toBe(EXIT.badInput);
    expect(both.err).toContain('antingen ett fast pris');
    const backwards = await admin(['product', 'update', product.id, '--min', '500', '--max', '100']);
    expect(backwards.err).toBe('Fel: Lägsta beloppet får inte vara större än det högsta.');
    const charity = await admin(['product', 'add', '--merchant', books.id, '--name', 'X', '--source', 'Charity', '--price', '10', '--valid-days', '30']);
    expect(charity.err).toBe('Fel: Handlaren erbjuder inte gåvotypen Charity. Lägg först till den hos handlaren.');
    const amount = await admin(['product', 'add', '--merchant', books.id, '--name', 'X', '--source', 'Code', '--price', 'tio', '--valid-days', '30']);
    expect(amount).toMatchObject({ code: EXIT.badInput, err: 'Fel: price: "tio" är inget belopp i kronor (t.ex. 149 eller 149,50).' });
    const noMerchant = await admin(['product', 'add', '--merchant', '00000000-0000-4000-8000-000000000000', '--name', 'X', '--source', 'Code', '--price', '10', '--valid-days', '30']);
    expect(noMerchant).toMatchObject({ code: EXIT.notFound, err: 'Fel: Handlaren finns inte.' });

    const removed = await admin(['product', 'remove', product.id]);
    expect(removed.code).toBe(EXIT.ok);
    expect(removed.out).toContain('Ljudbok');
    products = (await get(`/api/merchant/${books.id}/products`)).json() as Product[];
    expect(products.map((p) => p.id)).not.toContain(product.id);
    expect((await admin(['product', 'remove', '00000000-0000-4000-8000-000000000000'])).code).toBe(EXIT.notFound);
  });

  it('merchant deactivate takes the merchant out of the catalogue at once; merchant list shows it as inactive', async () => {
    const m = demoMerchants[4]!;
    expect((await get(`/api/merchant/${m.id}`)).statusCode).toBe(200);
    const res = await admin(['merchant', 'deactivate', m.id]);
    expect(res).toMatchObject({ code: EXIT.ok, out: `Handlaren är inaktiverad: ${m.name} (${m.id})` });
    expect((await get(`/api/merchant/${m.id}`)).statusCode).toBe(404);
    const listed = await admin(['merchant', 'list']);
    expect(listed.out).toContain(`${m.id}  - cinema`);
    for (const d of demoMerchants) expect(listed.out.toUpperCase()).not.toContain(d.merchantCode);
  });

  it('a database it cannot reach is exit 5 with a clear message', async () => {
    const err: string[] = [];
    const code = await runAdmin(['merchant', 'list'], {
      env: { DATABASE_URL: 'postgres://nobody:x@127.0.0.1:1/none', LANG: 'en_GB.UTF-8' },
      readStdin: async () => undefined,
      out: () => {},
      err: (l) => err.push(l),
    });
    expect(code).toBe(EXIT.database);
    expect(err.join('\n')).toMatch(/^Error: The database could not be reached/);
    const badUrl: string[] = [];
    expect(await runAdmin(['merchant', 'list'], { env: { DATABASE_URL: 'mysql://x' }, readStdin: async () => undefined, out: () => {}, err: (l) => badUrl.push(l) })).toBe(EXIT.badInput);
    expect(badUrl).toEqual(['Fel: DATABASE_URL måste vara en postgres://-adress.']);
  });

  it('kronor are read the Swedish and the English way', () => {
    expect(kronorToOre('price', '149')).toBe(14900);
    expect(kronorToOre('price', '149,50')).toBe(14950);
    expect(kronorToOre('price', '149.5')).toBe(14950);
    expect(kronorToOre('price', '1 000 kr')).toBe(100000);
    for (const bad of ['', '-5', '1,234', '12.345', 'abc', '1e3']) expect(() => kronorToOre('price', bad), bad).toThrow();
  });
});

describe('where the admin command connects', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) removeDataDir(d);
  });
  const dataDir = () => {
    const d = mkdtempSync(path.join(tmpdir(), 'greetie-admin-'));
    dirs.push(d);
    return d;
  };

  it('DATABASE_URL wins; a bad one is a configuration error', () => {
    expect(resolveTarget({ DATABASE_URL: 'postgres://u:p@db:5432/g', DATA_DIR: '/x' })).toEqual({ kind: 'url', url: 'postgres://u:p@db:5432/g' });
    expect(() => resolveTarget({ DATABASE_URL: 'mysql://x' })).toThrow();
  });

  it('an unowned DATA_DIR is started by the command itself', () => {
    const d = dataDir();
    expect(resolveTarget({ DATA_DIR: d })).toEqual({ kind: 'embedded', dataDir: d });
    writeFileSync(path.join(d, 'server.pid'), '999999999\n'); // left by a process that is gone
    expect(resolveTarget({ DATA_DIR: d })).toEqual({ kind: 'embedded', dataDir: d });
  });

  it("a DATA_DIR owned by a running server: connect to that server's database as a client", () => {
    const d = dataDir();
    const owner = process.ppid; // alive, and not this process
    writeFileSync(path.join(d, 'server.pid'), `${owner}\n`);
    expect(resolveTarget({ DATA_DIR: d })).toEqual({ kind: 'busy', pid: owner });
    mkdirSync(path.join(d, 'pg'));
    writeFileSync(path.join(d, 'pg', 'postmaster.pid'), `${process.pid}\n${d}/pg\n1700000000\n54321\n\n127.0.0.1\n`);
    writeFileSync(path.join(d, 'pg-password'), 'p@ss/word\n');
    expect(resolveTarget({ DATA_DIR: d })).toEqual({ kind: 'running', pid: owner, url: 'postgres://greetie:p%40ss%2Fword@127.0.0.1:54321/greetie' });
  });
});

describe('the admin binary', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  function run(args: string[], stdin?: string, env: Record<string, string> = {}): Promise<Result> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/admin/cli.ts', ...args], {
        cwd: path.resolve(import.meta.dirname, '../../..'),
        env: { PATH: process.env.PATH, DATABASE_URL: t.db.url, LANG: 'sv_SE.UTF-8', ...env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code: code ?? -1, out: out.trim(), err: err.trim() }));
      child.stdin.end(stdin ?? '');
    });
  }

  // Two processes, started together: each pays the TypeScript start-up, so keep them few.
  it('reads the code from stdin and prints the merchant (exit 0); refuses bad input on stderr (exit 2)', { timeout: 90_000 }, async () => {
    const [added, bad] = await Promise.all([
      run(['merchant', 'add', '--name', 'Binärbageriet', '--category', 'cafe', '--sources', 'InStore', '--logo-url', '/merchants/x.svg'], 'BAGARE99\n'),
      run(['product', 'add', '--merchant', demoMerchants[0]!.id, '--name', 'X', '--source', 'InStore', '--valid-days', '0', '--price', '10']),
    ]);
    expect(added.err).toBe('');
    expect(added.code).toBe(0);
    expect(added.out).not.toContain('BAGARE99');
    const { id } = JSON.parse(added.out) as { id: string };
    expect((await t.app.inject({ method: 'GET', url: `/api/merchant/${id}` })).json().name).toBe('Binärbageriet');
    expect(await verifyMerchantCode('BAGARE99', (await findMerchantCodeHash(t.db.db, id))!)).toBe(true);

    expect(bad.code).toBe(2);
    expect(bad.out).toBe('');
    expect(bad.err).toContain('--valid-days är för litet');
  });
});
