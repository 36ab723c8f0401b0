export * from './common';
export * from './limits';
export * from './sessions';
export * from './votes';
export * from './notify';
export * from './media';
export * from './admin';
export * from './runtime-config';
