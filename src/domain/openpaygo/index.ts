export * from './divider';
export * from './metrics';
export * from './python-json';
export * from './siphash';
export * from './token';
