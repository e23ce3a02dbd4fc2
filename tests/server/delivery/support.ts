import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Greetie } from '../../../contract/greetie.ts';
import type { Db } from '../../../server/db/index.ts';
import { SmsError, type SmsMessage, type SmsSender } from '../../../server/providers/sms/index.ts';
import { deliverOne, type DeliveryDeps } from '../../../server/delivery/rules.ts';
import { call, person, type Person } from '../greetie/support.ts';

/**
 * The SMS gateway as delivery sees it: the sandbox outbox, which can be made to fail (as a
 * gateway that does not answer), or to forget that it can be asked what it sent.
 */
export class FlakySms implements SmsSender {
  failures = 0;
  calls = 0;
  canConfirm = true;
  constructor(private readonly inner: SmsSender) {}
  async send(message: SmsMessage): Promise<void> {
    this.calls++;
    if (this.failures > 0) {
      this.failures--;
      throw new SmsError('unavailable', 'the gateway did not answer');
    }
    await this.inner.send(message);
  }
  get confirmSent(): SmsSender['confirmSent'] {
    return this.canConfirm && this.inner.confirmSent ? (m) => this.inner.confirmSent!(m) : undefined;
  }
}

/** Installs a FlakySms over the app's own SMS sender (delivery reads services.sms when it sends). */
export function flakySms(app: FastifyInstance): FlakySms {
  const sms = new FlakySms(app.services.sms);
  app.services.sms = sms;
  return sms;
}

/** A signed-in sender, with a name on the profile unless `name` is null. */
export async function sender(app: FastifyInstance, name: string | null): Promise<Person> {
  return person(app, undefined, name);
}

/** A draft to `to` without gifts (the /send path). */
export async function draft(app: FastifyInstance, who: Person, to: string, extra: Record<string, unknown> = {}): Promise<Greetie> {
  const res = await call(app, who, 'POST', '/api/greetie', { recipient: { mobileNumber: to, name: 'Vän' }, message: 'Hej!', ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Greetie;
}

export async function send(app: FastifyInstance, who: Person, id: string) {
  return call(app, who, 'POST', `/api/greetie/${id}/send`);
}

export interface Row {
  status: string;
  ref_id: string;
  delivered_at: Date | null;
  state: string | null;
  attempts: number | null;
  last_error: string | null;
}

export async function row(db: Db, id: string): Promise<Row> {
  const { rows } = await sql<Row>`
    SELECT g.status, g.ref_id, g.delivered_at, d.state, d.attempts, d.last_error
      FROM greetie g LEFT JOIN delivery d ON d.greetie_id = g.id WHERE g.id = ${id}`.execute(db);
  return rows[0]!;
}

/** The sandbox outbox's messages to a number, oldest first. */
export async function outbox(db: Db, to: string): Promise<string[]> {
  const { rows } = await sql<{ body: string }>`SELECT body FROM sandbox_sms WHERE to_number = ${to} ORDER BY id`.execute(db);
  return rows.map((r) => r.body);
}

/** Polls (every 50 ms) until `check` holds or `ms` pass; answers the last value. */
export async function until<T>(read: () => Promise<T>, check: (v: T) => boolean, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  let v = await read();
  while (!check(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    v = await read();
  }
  return v;
}

/**
 * A worker whose process dies during its delivery of `greetieId`: it claims the row for real
 * (deliverOne, with the SMS fixed and stored as the code does it), then dies right after the SMS
 * provider took the message (`smsWentOut`) or right before it was called. Its deliverOne never
 * finishes, as a killed process's never does; the row stays in sending, claimed `agedMs` ago (so
 * the sweep's lease has run out unless a test says otherwise). Answers the claim's time.
 */
export async function crashedDelivery(
  deps: DeliveryDeps,
  greetieId: string,
  opts: { smsWentOut: boolean; agedMs?: number },
): Promise<Date> {
  let reached!: () => void;
  const atProvider = new Promise<void>((resolve) => (reached = resolve));
  const dying: SmsSender = {
    async send(message) {
      if (opts.smsWentOut) await deps.services.sms.send(message);
      reached();
      return new Promise<void>(() => {}); // the process is gone: no answer, no "sent"
    },
  };
  void deliverOne({ ...deps, services: { ...deps.services, sms: dying } }, greetieId, { dueBy: new Date(Date.now() + 24 * 3600_000) });
  await atProvider;
  const aged = opts.agedMs ?? 10 * 60_000;
  const { rows } = await sql<{ sending_since: Date }>`
    UPDATE delivery SET sending_since = sending_since - make_interval(secs => ${aged / 1000})
     WHERE greetie_id = ${greetieId} AND state = 'sending' RETURNING sending_since`.execute(deps.db);
  expect(rows, 'the dying worker’s claim').toHaveLength(1);
  return rows[0]!.sending_since;
}
