/**
 * A deployed LogoVote driven through its gateway alone (a compose project's published port, a cluster's
 * gateway Service): the smoke flow each deployment tier runs, and vote storms that count what was
 * acknowledged.
 */
import type { CreatedSessionWithCreatorToken } from '@logovote/contracts';
import { apiVoter, createPoll, getPoll } from './polls';

export interface DeployedApp {
  gatewayUrl: string;
  admin: { user: string; password: string };
}

const basicAuth = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** GET /api/admin/polls through the gateway, without credentials or with the admin's; the status. */
export async function adminListStatus(app: DeployedApp, withCredentials: boolean): Promise<number> {
  const headers: Record<string, string> = withCredentials ? { Authorization: basicAuth(app.admin.user, app.admin.password) } : {};
  const res = await fetch(`${app.gatewayUrl}/api/admin/polls`, { headers });
  await res.body?.cancel();
  return res.status;
}

export interface SmokeResult {
  poll: CreatedSessionWithCreatorToken;
  votedLogoId: string;
  votesForIt: number;
  totalVotes: number;
  adminWithout: number;
  adminWith: number;
}

/** Creates a poll with the four fixture logos, votes once for its first logo, reads the results and tries the admin API. */
async function smokeFlow(app: DeployedApp): Promise<SmokeResult> {
  const poll = await createPoll({ gatewayUrl: app.gatewayUrl });
  const logo = poll.logos[0];
  if (!logo) throw new Error('the created poll has no logos');
  const voter = await apiVoter(poll.sessionId, app.gatewayUrl);
  const res = await voter.vote(logo.id);
  if (res.status !== 200) throw new Error(`voting: ${res.status} ${await res.text()}`);
  const results = await getPoll(poll.sessionId, app.gatewayUrl);
  return {
    poll,
    votedLogoId: logo.id,
    votesForIt: results.logos.find((l) => l.id === logo.id)?.voteCount ?? 0,
    totalVotes: results.totalVotes,
    adminWithout: await adminListStatus(app, false),
    adminWith: await adminListStatus(app, true),
  };
}

/** Runs the smoke flow, prints what it did, and expects the vote counted and the admin API 401 without credentials, 200 with. */
export async function expectSmokeFlowPasses(app: DeployedApp, log: (line: string) => void): Promise<SmokeResult> {
  const result = await smokeFlow(app);
  log(
    `smoke: poll ${result.poll.sessionId}, ${result.totalVotes} vote, admin ${result.adminWithout} without credentials, ${result.adminWith} with`,
  );
  expect(result.votesForIt).toBe(1);
  expect(result.totalVotes).toBe(1);
  expect(result.adminWithout).toBe(401);
  expect(result.adminWith).toBe(200);
  return result;
}

export interface StormResult {
  /** Votes answered 200: recorded, as far as the voter knows. */
  acknowledged: number;
  /** Votes answered otherwise or not at all, with what happened to each kind. */
  failed: number;
  failures: Record<string, number>;
}

/**
 * `voters` votes for `logoId`, each by a new visitor, `concurrency` at a time, until all are sent or
 * `until` resolves (whichever comes first; then the ones in flight finish). `onAcknowledged` hears the
 * running count of acknowledged votes.
 */
export async function voteStorm(
  app: DeployedApp,
  sessionId: string,
  logoId: string,
  options: { voters: number; concurrency: number; until?: Promise<unknown>; onAcknowledged?: (count: number) => void },
): Promise<StormResult> {
  const voter = await apiVoter(sessionId, app.gatewayUrl);
  const result: StormResult = { acknowledged: 0, failed: 0, failures: {} };
  let stop = false;
  void options.until?.then(() => {
    stop = true;
  });
  let sent = 0;
  const fail = (kind: string): void => {
    result.failed += 1;
    result.failures[kind] = (result.failures[kind] ?? 0) + 1;
  };
  const worker = async (): Promise<void> => {
    while (!stop && sent < options.voters) {
      sent += 1;
      try {
        const res = await voter.vote(logoId);
        await res.body?.cancel();
        if (res.status === 200) {
          result.acknowledged += 1;
          options.onAcknowledged?.(result.acknowledged);
        } else fail(`HTTP ${res.status}`);
      } catch (e) {
        fail(e instanceof Error ? ((e.cause as { code?: string } | undefined)?.code ?? e.message) : String(e));
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return result;
}
