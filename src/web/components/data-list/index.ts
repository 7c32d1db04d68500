export { type Column, DataTable } from './data-table';
export { FilterSelect } from './filter-select';
export { ListToolbar } from './list-toolbar';
export { Pagination } from './pagination';
export { LIST_PAGE_SIZE, useList } from './use-list';
export { csvHref, type ListState, listQueryString, parseListState, useListState } from './use-list-state';
