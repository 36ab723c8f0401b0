import { bootService, connectMongo, disconnectMongo } from '@logovote/service-kit';
import { buildApp } from './app';
import { loadConfig } from './config';
import { createMailer } from './mailer';
import { NotifySendModel } from './models/notify-send';

bootService({
  service: 'notify',
  loadConfig,
  async start(config, logger) {
    await connectMongo(config.MONGODB_URI, logger);
    await NotifySendModel.init();
    const mailer = createMailer(config);
    return {
      app: buildApp({ logger, mailer, config }),
      async onShutdown() {
        mailer.close();
        await disconnectMongo();
      },
    };
  },
});
