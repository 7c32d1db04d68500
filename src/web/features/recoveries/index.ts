/** The recoveries tabs for the /collections page, and the contract page's card. */
export { ContractRecoveriesCard } from './contract-recoveries-card';
export { RepossessionsTab } from './repossessions-tab';
export { WriteOffsTab } from './write-offs-tab';
