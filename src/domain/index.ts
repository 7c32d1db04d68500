/**
 * The finance engine: pure functions, no I/O, no framework (only decimal.js). Shared by the
 * server (contracts, payments, end of day, calculator, assistant) and the web app (calculator).
 * See README.md in this folder for the rules.
 */
export * from './allocation';
export * from './close-of-business';
export * from './collections-score';
export * from './dates';
export * from './delinquency';
export * from './errors';
export * from './kpis';
export * from './message-template';
export * from './money';
export * from './openpaygo';
export * from './origination';
export * from './payoff';
export * from './rational';
export * from './replay';
export * from './scenarios';
export * from './schedule';
export * from './scoring';
export * from './sms-segments';
