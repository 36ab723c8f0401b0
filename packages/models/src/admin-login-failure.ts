import { DAY_MS, HOUR_MS } from '@logovote/contracts';
import { timeBucketedLog } from './store/time-bucketed-log';

/**
 * Failed admin sign-ins, counted per network address for the gateway's back-off (SECURITY.md).
 *
 * One record per distinct wrong credential per address, claimed once under `<address>|<credential>`: a
 * browser that holds a stale password sends it with every file of the admin page, which is one guess,
 * not twenty, and concurrent guesses each count once, exactly. An address's records are one equality
 * lookup on `address`. Both keys are keyed hashes made by the caller: neither the address nor the
 * credential is stored. A time-bucketed log (./store/time-bucketed-log) by hour, swept once a whole hour
 * is past ADMIN_LOGIN_FAILURE_WINDOW_MS; reads leave out anything older meanwhile.
 */
const failures = timeBucketedLog<{ address: string }>({
  name: 'admin-login-failures',
  collection: 'admin_login_failures',
  model: 'AdminLoginFailure',
  fields: { address: { type: String, required: true } },
  indexed: ['address'],
  spansMs: [HOUR_MS],
});

/** How long a failed sign-in counts. */
export const ADMIN_LOGIN_FAILURE_WINDOW_MS = DAY_MS;

/** Records a failed sign-in; false when this address had tried this credential already (it counts once). */
export async function recordAdminLoginFailure(address: string, credential: string, at = new Date()): Promise<boolean> {
  return failures.append(`${address}|${credential}`, { address }, at);
}

/** When the address's failed sign-ins of the window before `now` happened, oldest first. */
export async function adminLoginFailuresOf(address: string, now = new Date()): Promise<Date[]> {
  const since = now.getTime() - ADMIN_LOGIN_FAILURE_WINDOW_MS;
  const rows = await failures.recordsWhere('address', address);
  return rows
    .map((row) => row.at)
    .filter((at) => at.getTime() > since)
    .sort((a, b) => a.getTime() - b.getTime());
}

/** Deletes the failures of every hour wholly past the window; resolves with how many went. */
export async function sweepAdminLoginFailures(now = new Date()): Promise<number> {
  return failures.sweep(now.getTime() - ADMIN_LOGIN_FAILURE_WINDOW_MS);
}
