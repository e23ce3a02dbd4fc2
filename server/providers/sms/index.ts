import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import type { SmsSender } from './provider.ts';
import { createSandboxSms } from './sandbox.ts';
import { createElksSms } from './elks.ts';

/** The SMS interface (./provider.ts) and the sender config.sms chooses. */
export * from './provider.ts';

export function createSmsSender(config: Config, db: Db, now: () => Date): SmsSender {
  if (config.sms.provider === '46elks') {
    return createElksSms({
      baseUrl: config.sms.elksBaseUrl,
      username: config.sms.elksUsername ?? '',
      password: config.sms.elksPassword ?? '',
      sender: config.sms.elksSender,
    });
  }
  return createSandboxSms(db, now);
}
