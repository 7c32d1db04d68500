import { type ZodRawShape, z } from 'zod';
import type { Endpoint } from './endpoint';

/**
 * The one convention of every list endpoint: `q` searches, named filters narrow, `sort` + `order`
 * order, `page` + `pageSize` page (1-based, 50 by default, 200 at most), and `format=csv`
 * exports every matching row (not just the page) as CSV.
 */
const base = {
  q: z.string().trim().max(100, 'At most 100 characters').optional(),
  page: z.coerce
    .number<string | number>({ error: 'page must be a number' })
    .int()
    .min(1)
    .max(1_000_000)
    .default(1),
  pageSize: z.coerce
    .number<string | number>({ error: 'pageSize must be a number' })
    .int()
    .min(1, 'pageSize must be at least 1')
    .max(200, 'pageSize must be at most 200')
    .default(50),
  order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).default('desc'),
  format: z.enum(['json', 'csv'], { error: 'format must be json or csv' }).default('json'),
};

export function listQuery<const S extends string, E extends ZodRawShape>(
  sorts: readonly [S, ...S[]],
  filters: E,
) {
  return z.strictObject({
    ...base,
    sort: z.enum(sorts, { error: `sort must be one of: ${sorts.join(', ')}` }).default(sorts[0]),
    ...filters,
  });
}

/** The parameters every list has; the schema's other keys are its filters. */
export const LIST_BASE_KEYS = ['q', 'page', 'pageSize', 'order', 'format', 'sort'] as const;

/** Any list's query schema (what `listQuery` returns). */
export type ListQuerySchema = z.ZodObject<
  typeof base & { sort: z.ZodDefault<z.ZodEnum<Record<string, string>>> } & ZodRawShape,
  z.core.$strict
>;

/** The filter names of a list's schema (for the web's address-bar state). */
export function listFilterNames(schema: ListQuerySchema): string[] {
  return Object.keys(schema.shape).filter((key) => !(LIST_BASE_KEYS as readonly string[]).includes(key));
}

/** The sort names of a list's schema. */
export function listSortNames(schema: ListQuerySchema): string[] {
  return schema.shape.sort.unwrap().options as string[];
}

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** Money as the API sends it (ARCHITECTURE.md): integer minor units with the currency alongside. */
export const moneySchema = z.object({ amount: z.number().int(), currency: z.string() });
export type Money = z.infer<typeof moneySchema>;

/** A list endpoint: `GET` with the convention's query, answering a page (the web's ListPage takes one). */
export type ListEndpoint<S extends ListQuerySchema = ListQuerySchema, Item = unknown> = Endpoint & {
  method: 'GET';
  query: S;
  response: z.ZodType<Page<Item>>;
};
