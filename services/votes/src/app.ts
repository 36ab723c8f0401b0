import type Koa from 'koa';
import { voteChangeSignals, type VoteChangeSignals } from '@logovote/models';
import { createServiceApp, mongoReadiness, type Logger } from '@logovote/service-kit';
import type { Config } from './config';
import { proofOfWork } from './proof-of-work';
import { analyticsRouter } from './routes/analytics';
import { fingerprintTestRouter } from './routes/fingerprint-test';
import { notesRouter } from './routes/notes';
import { reasonsRouter } from './routes/reasons';
import { attributesRouter } from './routes/attributes';
import { reportsRouter } from './routes/reports';
import { votesRouter } from './routes/votes';
import type { AddressPolicies } from './use-cases/cast-vote';

export interface VotesDeps {
  logger: Logger;
  /** The live-results signaller the process flushes when it stops (server.ts); one of its own if not given. */
  voteSignals?: VoteChangeSignals;
  config: Pick<
    Config,
    | 'CSRF_SECRET'
    | 'IP_HASH_SALT'
    | 'VOTES_PER_IP_PER_POLL'
    | 'PROOF_OF_WORK_FROM_VOTER'
    | 'PROOF_OF_WORK_VOTERS_PER_LEVEL'
    | 'PROOF_OF_WORK_ITERATIONS'
    | 'PROOF_OF_WORK_ATTEMPTS'
    | 'PROOF_OF_WORK_ATTEMPTS_PER_LEVEL'
    | 'SHARED_NETWORK_PROOF_OF_WORK_FROM_VOTER'
    | 'SHARED_NETWORK_PROOF_OF_WORK_ATTEMPTS_PER_LEVEL'
    | 'TRUSTED_PROXY_HOPS'
    | 'REPORTS_TO_HIDE'
    | 'REPORTS_PER_ADDRESS_PER_HOUR'
  >;
}

/** Who of an address's voters in a poll pays what: in any poll, and in one whose creator expects a shared network. */
export function addressPolicies(config: VotesDeps['config']): AddressPolicies {
  const policy = (freeVoters: number, attemptsPerLevel: number) => ({
    seats: {
      votersPerAddress: config.VOTES_PER_IP_PER_POLL,
      seatsWithoutProof: freeVoters,
      seatsPerLevel: config.PROOF_OF_WORK_VOTERS_PER_LEVEL,
    },
    cost: { attempts: config.PROOF_OF_WORK_ATTEMPTS, attemptsPerLevel },
  });
  return {
    standard: policy(config.PROOF_OF_WORK_FROM_VOTER - 1, config.PROOF_OF_WORK_ATTEMPTS_PER_LEVEL),
    sharedNetwork: policy(config.SHARED_NETWORK_PROOF_OF_WORK_FROM_VOTER - 1, config.SHARED_NETWORK_PROOF_OF_WORK_ATTEMPTS_PER_LEVEL),
  };
}

/** The process's live-results signaller (docs/live-results.md): a batch that fails is logged, and retried with the next vote. */
export function liveResultsSignals(logger: Logger): VoteChangeSignals {
  return voteChangeSignals((error) => logger.warn({ err: error }, 'live results signals not written'));
}

/**
 * Votes: casting and changing a vote (with step-up proof of work), my-vote status, voters' reasons and notes,
 * voters' reports of polls, the fingerprint test tool, and the analytics collector.
 */
export function buildApp({ logger, config, voteSignals = liveResultsSignals(logger) }: VotesDeps): Koa {
  return createServiceApp({
    service: 'votes',
    logger,
    routers: [
      votesRouter({
        csrfSecret: config.CSRF_SECRET,
        ipHashSalt: config.IP_HASH_SALT,
        addressPolicies: addressPolicies(config),
        proofOfWork: proofOfWork({ secret: config.IP_HASH_SALT, iterations: config.PROOF_OF_WORK_ITERATIONS }),
        voteSignals,
      }),
      reasonsRouter({ csrfSecret: config.CSRF_SECRET, ipHashSalt: config.IP_HASH_SALT, logger }),
      notesRouter({ csrfSecret: config.CSRF_SECRET, ipHashSalt: config.IP_HASH_SALT, logger }),
      attributesRouter({ csrfSecret: config.CSRF_SECRET, ipHashSalt: config.IP_HASH_SALT, logger }),
      reportsRouter({
        csrfSecret: config.CSRF_SECRET,
        ipHashSalt: config.IP_HASH_SALT,
        reportsToHide: config.REPORTS_TO_HIDE,
        reportsPerAddressPerHour: config.REPORTS_PER_ADDRESS_PER_HOUR,
      }),
      fingerprintTestRouter(),
      analyticsRouter(),
    ],
    readiness: [mongoReadiness],
    trustedProxyHops: config.TRUSTED_PROXY_HOPS,
  });
}
