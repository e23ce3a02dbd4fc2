import { fromPromise, type AnyActorLogic, type AnyStateMachine } from 'xstate';

interface Pending {
  id: string;
  src: string;
  input: unknown;
  resolve: (output: unknown) => void;
  reject: (error: unknown) => void;
  settled: boolean;
}

/**
 * Stand-ins for a machine's named actors: each invocation waits until the test settles it, as the
 * server would answer. `resolve(id, output)` / `reject(id, error)` settle the latest pending
 * invocation with that invoke id (or, failing that, that actor name).
 */
export class FakeActors {
  readonly calls: Pending[] = [];

  logic(src: string): AnyActorLogic {
    return fromPromise<unknown, unknown>(
      ({ input, self }) =>
        new Promise((resolve, reject) => {
          this.calls.push({ id: self.id, src, input, resolve, reject, settled: false });
        }),
    );
  }

  /** A fake for every named actor of the machine. */
  forMachine(machine: AnyStateMachine): Record<string, AnyActorLogic> {
    const names = Object.keys((machine.implementations.actors ?? {}) as Record<string, unknown>);
    return Object.fromEntries(names.map((n) => [n, this.logic(n)]));
  }

  private take(idOrSrc: string): Pending | undefined {
    const open = this.calls.filter((c) => !c.settled);
    const found = [...open].reverse().find((c) => c.id === idOrSrc) ?? [...open].reverse().find((c) => c.src === idOrSrc);
    if (found) found.settled = true;
    return found;
  }

  /** The input of the latest pending invocation (by invoke id or actor name). */
  inputOf(idOrSrc: string): unknown {
    const open = this.calls.filter((c) => !c.settled);
    return ([...open].reverse().find((c) => c.id === idOrSrc) ?? [...open].reverse().find((c) => c.src === idOrSrc))?.input;
  }

  resolve(idOrSrc: string, output: unknown): boolean {
    const p = this.take(idOrSrc);
    p?.resolve(output);
    return !!p;
  }

  reject(idOrSrc: string, error: unknown): boolean {
    const p = this.take(idOrSrc);
    p?.reject(error);
    return !!p;
  }
}
