import { Schema, model } from 'mongoose';
import { isDuplicateKey } from './tally-ledger';

/**
 * Failed admin sign-ins, counted per network address for the gateway's back-off (SECURITY.md).
 *
 * One record per distinct wrong credential per address: a browser that holds a stale password sends it with
 * every file of the admin page, which is one guess, not twenty. Insert-only under that unique key, never a
 * counter (FerretDB 1.x loses concurrent updates), so concurrent guesses are each counted once, exactly. An
 * address's records are read with one equality lookup on `address` (indexed). Both keys are keyed hashes made
 * by the caller: neither the address nor the credential is stored.
 *
 * Kept ADMIN_LOGIN_FAILURE_WINDOW_MS: FerretDB 1.24 refuses TTL indexes (`expireAfterSeconds`), so each
 * record carries its UTC hour, each hour holding records has a marker, and a sweep deletes whole hours past
 * the window (equality deletes); reads leave out anything older meanwhile.
 */
const adminLoginFailureSchema = new Schema(
  {
    /** `<address key>|<credential key>`. */
    _id: { type: String, required: true },
    address: { type: String, required: true },
    /** The UTC hour, `2026-11-24T13`. */
    hour: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { collection: 'admin_login_failures', versionKey: false },
);
adminLoginFailureSchema.index({ address: 1 });
adminLoginFailureSchema.index({ hour: 1 });
export const AdminLoginFailureModel = model('AdminLoginFailure', adminLoginFailureSchema);

/** "Some failure was recorded in this hour": `_id` is the hour. */
const adminLoginFailureHourSchema = new Schema(
  { _id: { type: String, required: true } },
  { collection: 'admin_login_failure_hours', versionKey: false },
);
export const AdminLoginFailureHourModel = model('AdminLoginFailureHour', adminLoginFailureHourSchema);

/** How long a failed sign-in counts. */
export const ADMIN_LOGIN_FAILURE_WINDOW_MS = 24 * 60 * 60 * 1000;

const failureHour = (at: Date): string => at.toISOString().slice(0, 13);

/** Records a failed sign-in; false when this address had tried this credential already (it counts once). */
export async function recordAdminLoginFailure(address: string, credential: string, at = new Date()): Promise<boolean> {
  const hour = failureHour(at);
  // The marker first: a failure is never stored in an hour the sweep does not know of.
  try {
    await AdminLoginFailureHourModel.create({ _id: hour });
  } catch (error: unknown) {
    if (!isDuplicateKey(error)) throw error;
  }
  try {
    await AdminLoginFailureModel.create({ _id: `${address}|${credential}`, address, hour, at });
    return true;
  } catch (error: unknown) {
    if (isDuplicateKey(error)) return false;
    throw error;
  }
}

/** When the address's failed sign-ins of the window before `now` happened, oldest first. */
export async function adminLoginFailuresOf(address: string, now = new Date()): Promise<Date[]> {
  const since = now.getTime() - ADMIN_LOGIN_FAILURE_WINDOW_MS;
  const rows = await AdminLoginFailureModel.find({ address }, { at: 1, _id: 0 }).lean();
  return rows
    .map((row) => row.at)
    .filter((at) => at.getTime() > since)
    .sort((a, b) => a.getTime() - b.getTime());
}

/** Deletes the failures of every hour wholly past the window, and those hours' markers; resolves with how many went. */
export async function sweepAdminLoginFailures(now = new Date()): Promise<number> {
  const firstKept = failureHour(new Date(now.getTime() - ADMIN_LOGIN_FAILURE_WINDOW_MS));
  const expired = (await AdminLoginFailureHourModel.find({}, { _id: 1 }).lean())
    .map((marker) => marker._id)
    .filter((hour) => hour < firstKept);
  let deleted = 0;
  for (const hour of expired) {
    deleted += (await AdminLoginFailureModel.deleteMany({ hour })).deletedCount;
    // The marker last: an hour whose deletion fails midway is found again by the next sweep.
    await AdminLoginFailureHourModel.deleteOne({ _id: hour });
  }
  return deleted;
}
