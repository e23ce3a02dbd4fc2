import { useCallback } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import type { Failure } from '../../contract/errors.ts';
import { LOADER_TAGS, type LoaderMachine, type LoaderSnapshot, type LoaderTag } from '../../machines/loader.ts';
import { screenOf } from './flow.ts';
import { inspect } from '../inspect.ts';

export type LoaderStatus = LoaderTag;

export interface LoaderView<Data> {
  /** What to show: 'loading', 'loaded', 'failed' (with `error` and `retry`) or 'notFound'. */
  status: LoaderStatus;
  /** The answer once loaded, else null. */
  data: Data | null;
  /** The failure when failed or not found, else null. */
  error: Failure | null;
  /** Tries the same load again (only a failed load takes it). */
  retry: () => void;
}

/**
 * Runs a loader (machines/loader.ts, with its `load` provided) for as long as the component is
 * mounted, loading `params` once. To load something else, start a new one: give the component a
 * `key` that changes with the params.
 *
 *   const { status, data, error, retry } = useLoader(merchantDetailsLoader, { id });
 */
export function useLoader<Params, Data>(loader: LoaderMachine<Params, Data>, params: Params): LoaderView<Data> {
  const actor = useActorRef(loader, { input: params, inspect });
  const status = useSelector(actor, (s: LoaderSnapshot<Params, Data>) => screenOf(s, LOADER_TAGS));
  const data = useSelector(actor, (s: LoaderSnapshot<Params, Data>) => s.context.data);
  const error = useSelector(actor, (s: LoaderSnapshot<Params, Data>) => s.context.error);
  const retry = useCallback(() => actor.send({ type: 'user.retry' }), [actor]);
  return { status, data, error, retry };
}
