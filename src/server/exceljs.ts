import type ExcelJS from 'exceljs';

let loaded: Promise<typeof ExcelJS> | undefined;

/**
 * exceljs, loaded when a workbook is first read or written: with the zip libraries it brings it
 * took a quarter of a second of every start of the server, for the few requests that use it.
 */
export function exceljs(): Promise<typeof ExcelJS> {
  loaded ??= import('exceljs').then((module) => module.default);
  return loaded;
}
