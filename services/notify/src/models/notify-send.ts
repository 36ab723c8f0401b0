import { Schema, model } from 'mongoose';

/**
 * One row per e-mail a poll sent in an hour, keyed `<pollId>:<hour>:<n>` with n below the hourly
 * limit: the key makes a slot impossible to take twice, so concurrent requests cannot exceed the
 * limit (FerretDB loses concurrent `$inc`s, so a counter document would not hold it).
 */
const notifySendSchema = new Schema(
  {
    _id: { type: String, required: true },
    pollId: { type: String, required: true },
    hourStart: { type: Date, required: true },
  },
  { collection: 'notify_sends', versionKey: false, timestamps: { createdAt: true, updatedAt: false } },
);
notifySendSchema.index({ pollId: 1, hourStart: 1 });

export const NotifySendModel = model('NotifySend', notifySendSchema);
