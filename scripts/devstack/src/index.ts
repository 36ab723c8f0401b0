// @logovote/devstack: starts/stops the real local servers for `npm start` and tests.
export { repoRoot, toolsBinDir } from './paths';
export { toolPath, installerToolOf, ensureInfraInstalled, installInfraAside, type ToolName } from './tools';
export { spawnManaged, stopAll, stopOnFailure, readLogTail, type ManagedProcess, type SpawnManagedOptions } from './processes';
export { waitForHttp, waitForTcp, waitFor, type WaitForHttpOptions, type WaitForTcpOptions } from './wait';
export { findFreePort } from './ports';
export { startPostgres, postgresUrl, postgresEnv, postgresQuery, POSTGRES_DATABASE, type StartPostgresOptions } from './postgres';
export { startFerretDB, mongoPing, type StartFerretDBOptions } from './ferretdb';
export { startMinio, type StartMinioOptions } from './minio';
export { startMailCatcher, mailCatcherClient, type StartMailCatcherOptions, type MailCatcherClient, type CaughtMail } from './mailcatcher';
export { startNginx, renderNginxConf, type StartNginxOptions } from './nginx';
