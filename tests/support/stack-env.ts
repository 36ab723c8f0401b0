/**
 * What scripts/test.ts tells the test processes about the stack it started. Integration tests build
 * apps in-process against the same FerretDB and MinIO; e2e tests drive the gateway.
 */
export interface TestStackEnv {
  gatewayUrl: string;
  mongoUri: string;
  /** The embedded PostgreSQL cluster under FerretDB (its table statistics show what a query read). */
  postgresPort: number;
  s3: { endpoint: string; accessKey: string; secretKey: string; bucket: string; region: string };
  smtpUrl: string;
  mailApiUrl: string;
  admin: { user: string; password: string };
}

export const STACK_ENV_VAR = 'LOGOVOTE_TEST_STACK';

/**
 * Limits of the test stacks (scripts/test.ts, the fault tests' own).
 * - Poll creations per address: the browser tests create all their polls from 127.0.0.1, about a hundred in a full
 *   run where the product allows 10 an hour; the hostile test of the limit (tests/hostile/abuse-costs.test.ts)
 *   exceeds these from an address of its own.
 * - The page parts' wait: the tests of a poll page's first paint need the poll in its HTML, and the sessions
 *   service of a loaded 2-core CI machine can take longer than production's 500 ms to answer; the page without
 *   them is tested by leaving the part out (tests/support/polls.ts, `withoutEmbeddedPoll`).
 */
export const TEST_STACK_LIMITS = {
  POLL_CREATIONS_PER_ADDRESS_PER_HOUR: '200',
  POLL_CREATIONS_PER_ADDRESS_PER_DAY: '1000',
  PAGE_PART_TIMEOUT: '5s',
};

export function testStack(): TestStackEnv {
  const raw = process.env[STACK_ENV_VAR];
  if (!raw)
    throw new Error(`${STACK_ENV_VAR} is not set: run integration and e2e tests through \`npm test\`, which starts the real servers`);
  return JSON.parse(raw) as TestStackEnv;
}
