/**
 * A crash on purpose, for the crash tests only (tests/server/payment/crash.test.ts): when the
 * environment variable GREETIE_TEST_CRASH_AT names this point, the process kills itself with
 * SIGKILL right there — no shutdown code, no pending write — as a power cut would. Unset (always,
 * outside those tests) it does nothing.
 */
export type CrashPoint = 'payment.paid' | 'refund.created';

export function crashPoint(point: CrashPoint): void {
  if (process.env.GREETIE_TEST_CRASH_AT === point) process.kill(process.pid, 'SIGKILL');
}
