import { ConfigError, objectStoreEnv, parseEnv, portEnv, serviceEnv } from '../src';

const schema = serviceEnv.extend(portEnv(4001).shape).extend(objectStoreEnv.shape);

describe('configuration from the environment', () => {
  it('applies defaults', () => {
    const config = parseEnv(schema, { S3_ACCESS_KEY: 'key', S3_SECRET_KEY: 'secret-key' });
    expect(config.PORT).toBe(4001);
    expect(config.HOST).toBe('127.0.0.1');
    expect(config.S3_BUCKET).toBe('logovote-logos');
  });

  it('fails fast naming every bad variable', () => {
    expect(() => parseEnv(schema, { PORT: 'eighty', MONGODB_URI: 'postgres://x' })).toThrow(ConfigError);
    try {
      parseEnv(schema, { PORT: 'eighty', MONGODB_URI: 'postgres://x' });
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ['PORT', 'MONGODB_URI', 'S3_ACCESS_KEY', 'S3_SECRET_KEY']) expect(message).toContain(name);
    }
  });
});
