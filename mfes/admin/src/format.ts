import type { PaymentPlan } from '@logovote/contracts';

/** Spec section 2: short month, day, year, hour and minute, e.g. "May 24, 2025, 4:30 PM" (in the viewer's time zone). */
const CREATED_AT = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

export function formatCreatedAt(iso: string): string {
  return CREATED_AT.format(new Date(iso));
}

/** '1 vote', '2 votes'. */
export function votesLabel(count: number): string {
  return `${count} ${count === 1 ? 'vote' : 'votes'}`;
}

/** What each plan means (spec section 9), for the detail panel's 'Payment Preference'. */
export const PLAN_DESCRIPTIONS: Record<PaymentPlan, string> = {
  free: 'Free: logos, feedback and discussions may be used as AI training data',
  paid: 'Paid: $0.99 per survey, data kept private while the survey exists',
  bulk: 'Bulk: $4.99 for 20 surveys',
};
