import type { ComponentType } from 'react';
import { SmsOutbox } from './SmsOutbox.tsx';
import { MerchantCodesSection } from './MerchantCodesSection.tsx';
import { PendingPaymentsSection } from './PendingPaymentsSection.tsx';
import { PendingRefundsSection } from './PendingRefundsSection.tsx';
import { PushOutbox } from './PushOutbox.tsx';

/**
 * The sections of the /sandbox page, in order. Each feature that has a sandbox adds its own
 * section component here (one line), e.g.
 *
 *   { id: 'merchants', Component: MerchantCodesSection },   // the demo merchant codes
 *   { id: 'payments', Component: PendingPaymentsSection },  // pending payments to settle
 *
 * A section renders its own <section aria-labelledby=…> with an <h2>.
 */
export interface SandboxSection {
  id: string;
  Component: ComponentType;
}

export const sandboxSections: SandboxSection[] = [
  { id: 'sms', Component: SmsOutbox },
  { id: 'push', Component: PushOutbox },
  { id: 'payments', Component: PendingPaymentsSection },
  { id: 'refunds', Component: PendingRefundsSection },
  { id: 'merchants', Component: MerchantCodesSection },
];
