export * from './siphash';
export * from './token';
