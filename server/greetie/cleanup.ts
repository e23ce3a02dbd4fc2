/**
 * What deleting a greetie asks of the media storage (services.media). DELETE /greetie/{id}
 * removes the greetie's rows in one transaction and, once that has committed, calls
 * `deleteForGreetie` with the storage keys its media_file rows named, so the stored objects go
 * too. After the commit, because the rows are the truth: a storage failure leaves unreachable
 * objects behind (logged), never a greetie whose files are gone.
 *
 * server/app.ts provides the media resource's (createMediaCleanup, server/media/rules.ts), which
 * deletes them from the storage; tests pass their own, or `noMediaCleanup`.
 */
export interface GreetieMediaCleanup {
  deleteForGreetie(greetie: { greetieId: string; storageKeys: string[] }): Promise<void>;
}

export const noMediaCleanup: GreetieMediaCleanup = {
  deleteForGreetie: async () => {},
};
