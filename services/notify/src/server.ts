import { bootService, connectMongo, createObjectStore, disconnectMongo, runInBackground } from '@logovote/service-kit';
import { buildApp } from './app';
import { loadConfig } from './config';
import { createMailer } from './mailer';
import { purgeNotifyDataOfDeletedPolls } from './poll-data';

/** How often the data of polls being deleted is removed (the sessions service waits for it). */
const PURGE_INTERVAL_MS = 1_000;

bootService({
  service: 'notify',
  loadConfig,
  async start(config, logger) {
    await connectMongo(config.MONGODB_URI, logger);
    const purger = runInBackground('remove the data of deleted polls', () => purgeNotifyDataOfDeletedPolls(), PURGE_INTERVAL_MS, logger);
    const mailer = createMailer(config);
    return {
      app: buildApp({ logger, mailer, store: createObjectStore(config), config }),
      async onShutdown() {
        await purger.stop();
        mailer.close();
        await disconnectMongo();
      },
    };
  },
});
