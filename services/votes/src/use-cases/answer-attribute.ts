import {
  attributeLedger,
  attributeMember,
  attributeTally,
  attributeValue,
  channelOfVoter,
  currentVote,
  findActivePoll,
  type Revision,
} from '@logovote/models';
import { votingRefusal, type VotingRefusal } from './cast-vote';

/** One answer to one of a poll's attribute questions (docs/attributes.md): a logo of it, or null for "Can't say". */
export interface AttributeAnswer {
  pollId: string;
  voterKey: string;
  attribute: number;
  logoId: string | null;
}

/** `changed`: the answer differs from the voter's last one, so open results pages are to be told. */
export type AnswerOutcome =
  | { outcome: 'recorded'; changed: boolean }
  | { outcome: 'no-poll' }
  | { outcome: VotingRefusal }
  | { outcome: 'no-such-attribute' }
  | { outcome: 'no-such-logo' }
  | { outcome: 'no-vote' }
  | { outcome: 'busy' };

/** Writers of one voter's answer at once (two tabs): each loss is another's success, so a few tries settle it. */
const WRITE_ATTEMPTS = 5;

/** The poll, if it takes answers, with what answering needs of it. */
const pollToAnswer = (pollId: string) => findActivePoll(pollId, ['logos', 'attributes']);

/**
 * Writes `to` as the member's next revision after the newest one read: a writer that loses the revision's
 * number reads again. Resolves with the revision written, 'unchanged' when the answer already was this one,
 * or null when other writers kept winning.
 */
async function writeAnswer(tally: string, member: string, to: string): Promise<Revision | 'unchanged' | null> {
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const head = await attributeLedger.head(member);
    if (head.value === to) return 'unchanged';
    const revision: Revision = { tally, member, rev: head.rev + 1, from: head.value, to };
    if (await attributeLedger.append(revision)) return revision;
  }
  return null;
}

/**
 * Answering an attribute question, the whole use case: the poll takes votes and asks this attribute, the
 * logo is one of it, the voter has voted; the answer is the voter's next revision in the poll's answers
 * (a changed answer moves exactly), mirrored into the voter's channel with the same number. Answers a
 * typed outcome; the route maps it to HTTP and tells open results pages.
 */
export async function answerAttribute(answer: AttributeAnswer): Promise<AnswerOutcome> {
  const poll = await pollToAnswer(answer.pollId);
  if (!poll) return { outcome: 'no-poll' };
  const stopped = await votingRefusal(poll._id);
  if (stopped) return { outcome: stopped };
  if (answer.attribute >= (poll.attributes?.length ?? 0)) return { outcome: 'no-such-attribute' };
  if (answer.logoId !== null && !poll.logos.some((logo) => logo.id === answer.logoId)) return { outcome: 'no-such-logo' };
  if ((await currentVote(answer.voterKey)).logoId === null) return { outcome: 'no-vote' };
  const to = attributeValue(answer.attribute, answer.logoId);
  const written = await writeAnswer(attributeTally(poll._id), attributeMember(answer.voterKey, answer.attribute), to);
  if (written === null) return { outcome: 'busy' };
  if (written === 'unchanged') return { outcome: 'recorded', changed: false };
  // The channel's tally mirrors the poll's revision for revision (the same number, from and to), so its
  // counts move exactly too; a mirror already there is this revision's, written by a retry.
  const channel = await channelOfVoter(answer.voterKey);
  if (channel) {
    await attributeLedger.append({
      ...written,
      tally: attributeTally(poll._id, channel),
      member: attributeMember(answer.voterKey, answer.attribute, channel),
    });
  }
  return { outcome: 'recorded', changed: true };
}
