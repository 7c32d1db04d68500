export { type Column, DataTable, ListStates } from './data-table';
export { FilterSelect } from './filter-select';
export { type FilterControl, ListPage } from './list-page';
export { ListToolbar } from './list-toolbar';
export { Pagination } from './pagination';
export { TwoLineCell } from './two-line-cell';
export { LIST_PAGE_SIZE, useList } from './use-list';
export {
  csvHref,
  type ListState,
  type ListStateApi,
  listDefaultsOf,
  listQueryOf,
  parseListState,
  useListState,
} from './use-list-state';
