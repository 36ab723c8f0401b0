import { NotifySendModel } from './models/notify-send';

const HOUR_MS = 60 * 60 * 1000;
const DUPLICATE_KEY = 11000;

export type SendClaim = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Takes one of the poll's `perHour` e-mail slots of the current clock hour. Slots are numbered in
 * order, so the count of used slots names the next one; a duplicate key means another request took
 * it first and the count is read again (each retry means a slot was used, so this ends).
 */
export async function claimEmailSlot(pollId: string, perHour: number, now = new Date()): Promise<SendClaim> {
  const hourStart = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);
  for (;;) {
    const used = await NotifySendModel.countDocuments({ pollId, hourStart });
    if (used >= perHour) return { allowed: false, retryAfterSeconds: Math.ceil((hourStart.getTime() + HOUR_MS - now.getTime()) / 1000) };
    try {
      await NotifySendModel.create({ _id: `${pollId}:${hourStart.getTime()}:${used}`, pollId, hourStart });
      // Earlier hours no longer limit anything.
      await NotifySendModel.deleteMany({ pollId, hourStart: { $lt: hourStart } });
      return { allowed: true };
    } catch (error: unknown) {
      if ((error as { code?: unknown }).code !== DUPLICATE_KEY) throw error;
    }
  }
}
