/**
 * OpenPAYGO Metrics (v1.0-rc1, an independent implementation of the open specification): a
 * device's signed request of usage data, and the server's signed answer.
 *
 * A request is JSON, in simple or condensed key names (`sn`, `ts`, `rc`, `d`, `hd`, `a`…). Its
 * `auth` is two letters naming the method and the SipHash-2-4 (the device's key) of:
 * - `sa` the serial; `ta` serial + timestamp; `ca` serial + request count;
 * - `da` serial + timestamp + request count + data + historical data (each only when present);
 * - `ra` the same chained: each part hashed with the previous hash's hex text in front.
 * Data and historical data are signed as compact JSON, exactly as Python writes it (python-json.ts);
 * the hash is written in lowercase hex without leading zeros. A replay (a request count or
 * timestamp not above the last accepted one) is refused.
 *
 * The answer carries the tokens issued after the device's `token_count` (`tkl`), or its active
 * until time (`auts`) or seconds left (`asl`) when it asks, and `a`: `da` + the hash of serial +
 * timestamp + request count (as sent) + active until + seconds left + tokens, settings and extra
 * data as compact JSON.
 */
import { invalid } from '../errors';
import {
  type PyJson,
  PyJsonError,
  parsePyJson,
  pyDumps,
  pyGet,
  pyStr,
  pyTruthy,
  toPlain,
} from './python-json';
import { siphash24 } from './siphash';
import { parseSecretKey, type SecretKey } from './token';

export type MetricsAuthMethod = 'sa' | 'ta' | 'ca' | 'da' | 'ra';
export const METRICS_AUTH_METHODS: readonly MetricsAuthMethod[] = ['sa', 'ta', 'ca', 'da', 'ra'];

/** Condensed names of the specification, simple name -> short name. */
const CONDENSED: Record<string, string> = {
  serial_number: 'sn',
  timestamp: 'ts',
  auth: 'a',
  request_count: 'rc',
  data_collection_timestamp: 'dtc',
  data_format_id: 'df',
  data_format: 'dfo',
  data: 'd',
  historical_data: 'hd',
  accessories: 'acc',
  token_list: 'tkl',
  active_until_timestamp: 'auts',
  active_seconds_left: 'asl',
  settings: 'st',
  extra_data: 'ed',
  token_count: 'tc',
  active_until_timestamp_requested: 'autsr',
  active_seconds_left_requested: 'aslr',
};
const SIMPLE: Record<string, string> = Object.fromEntries(Object.entries(CONDENSED).map(([k, v]) => [v, k]));

function simpleKeys(node: PyJson): PyJson {
  if (node.t !== 'obj') return node;
  return { t: 'obj', entries: node.entries.map(([k, v]) => [SIMPLE[k] ?? k, v]) };
}

/** SipHash-2-4 of UTF-8 text with the device key, as lowercase hex without leading zeros. */
export function metricsHash(text: string, secretKey: SecretKey): string {
  return siphash24(parseSecretKey(secretKey), new TextEncoder().encode(text)).toString(16);
}

/** The signature a request of this method must carry (the method's two letters and the hash). */
export function requestSignature(request: PyJson, method: MetricsAuthMethod, secretKey: SecretKey): string {
  const simple = simpleKeys(request);
  const serialNode = pyGet(simple, 'serial_number');
  const serial = serialNode ? pyStr(serialNode) : '';
  const timestamp = pyGet(simple, 'timestamp');
  const count = pyGet(simple, 'request_count');
  const data = pyGet(simple, 'data');
  const history = pyGet(simple, 'historical_data');
  const hash = (text: string) => metricsHash(text, secretKey);
  switch (method) {
    case 'sa':
      return method + hash(serial);
    case 'ta':
      if (!timestamp || !pyTruthy(timestamp))
        throw invalid('timestamp', 'Timestamp auth needs the timestamp');
      return method + hash(serial + pyStr(timestamp));
    case 'ca':
      if (!count || !pyTruthy(count)) throw invalid('request_count', 'Counter auth needs the request count');
      return method + hash(serial + pyStr(count));
    case 'da': {
      let payload = serial;
      if (timestamp && pyTruthy(timestamp)) payload += pyStr(timestamp);
      if (count && pyTruthy(count)) payload += pyStr(count);
      if (data && pyTruthy(data)) payload += pyDumps(data);
      if (history && pyTruthy(history)) payload += pyDumps(history);
      return method + hash(payload);
    }
    case 'ra': {
      let h = hash(serial);
      if (timestamp && pyTruthy(timestamp)) h = hash(h + pyStr(timestamp));
      if (count && pyTruthy(count)) h = hash(h + pyStr(count));
      h = hash(h + (data ? pyDumps(data) : '[]'));
      // Python iterates a list's items, or a dict's keys.
      const steps: PyJson[] =
        history?.t === 'arr'
          ? history.items
          : history?.t === 'obj'
            ? history.entries.map(([k]) => ({ t: 'str', v: k }) as PyJson)
            : [];
      for (const step of steps) h = hash(h + pyDumps(step));
      return method + h;
    }
  }
}

/** A data format (the specification's Data Format Object): the order of condensed values. */
export interface MetricsDataFormat {
  data_order?: string[];
  historical_data_order?: string[];
  historical_data_interval?: number;
}

/** A request as the server reads it: simple names, data and history as objects, each step timed. */
export interface MetricsRequest {
  serialNumber: string;
  auth: string | null;
  method: MetricsAuthMethod | null;
  timestamp: number | null;
  requestCount: number | null;
  dataFormatId: string | null;
  /** The parsed request in simple key names, for the signature. */
  tree: PyJson;
}

export class MetricsRequestError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** The last second of year 9999: later timestamps are not times. */
export const MAX_METRICS_TIMESTAMP = 253_402_300_799;

function wholeNumber(node: PyJson | undefined, field: string, max = Number.MAX_SAFE_INTEGER): number | null {
  if (!node || (node.t === 'lit' && node.v === null)) return null;
  if (node.t !== 'num' || !/^\d+$/.test(node.raw) || Number(node.raw) > max) {
    throw new MetricsRequestError(field, `${field} must be a whole number from 0 to ${max}`);
  }
  return Number(node.raw);
}

/** Reads a request's text. Throws MetricsRequestError (field and message) when it is not a request. */
export function readMetricsRequest(text: string): MetricsRequest {
  let parsed: PyJson;
  try {
    parsed = parsePyJson(text);
  } catch (error) {
    if (error instanceof PyJsonError)
      throw new MetricsRequestError('body', `The request is not JSON: ${error.message}`);
    throw error;
  }
  if (parsed.t !== 'obj') throw new MetricsRequestError('body', 'The request must be a JSON object');
  const tree = simpleKeys(parsed);
  const serial = pyGet(tree, 'serial_number');
  if (serial?.t !== 'str' || serial.v.trim() === '') {
    throw new MetricsRequestError(
      'serial_number',
      'serial_number (sn) is required: the device serial number',
    );
  }
  const authNode = pyGet(tree, 'auth');
  let auth: string | null = null;
  let method: MetricsAuthMethod | null = null;
  if (authNode && !(authNode.t === 'lit' && authNode.v === null)) {
    if (authNode.t !== 'str') throw new MetricsRequestError('auth', 'auth (a) must be text');
    auth = authNode.v;
    const prefix = auth.slice(0, 2) as MetricsAuthMethod;
    if (!METRICS_AUTH_METHODS.includes(prefix)) {
      throw new MetricsRequestError(
        'auth',
        `Unknown auth method "${auth.slice(0, 2)}" (sa, ta, ca, da or ra)`,
      );
    }
    method = prefix;
  }
  for (const field of ['data', 'historical_data'] as const) {
    const node = pyGet(tree, field);
    if (node && node.t !== 'obj' && node.t !== 'arr') {
      throw new MetricsRequestError(field, `${field} must be an object or a list`);
    }
  }
  const formatId = pyGet(tree, 'data_format_id');
  return {
    serialNumber: serial.v,
    auth,
    method,
    timestamp: wholeNumber(pyGet(tree, 'timestamp'), 'timestamp', MAX_METRICS_TIMESTAMP),
    requestCount: wholeNumber(pyGet(tree, 'request_count'), 'request_count'),
    dataFormatId: formatId && formatId.t !== 'lit' ? pyStr(formatId) : null,
    tree,
  };
}

/** Whether the request's signature is the one the device's key gives. */
export function signatureMatches(request: MetricsRequest, secretKey: SecretKey): boolean {
  if (!request.auth || !request.method) return false;
  try {
    return requestSignature(request.tree, request.method, secretKey) === request.auth;
  } catch {
    return false;
  }
}

/** Why a request is a replay of an earlier one, or null. */
export function replayIssue(
  request: Pick<MetricsRequest, 'timestamp' | 'requestCount'>,
  last: { requestCount: number | null; timestamp: number | null },
): { field: string; message: string } | null {
  if (!request.requestCount && !request.timestamp) {
    return {
      field: 'request_count',
      message: 'A signed request needs a request_count (rc) or a timestamp (ts) above the last one',
    };
  }
  if (request.requestCount && last.requestCount && request.requestCount <= last.requestCount) {
    return {
      field: 'request_count',
      message: `Request count ${request.requestCount} is not above the last accepted (${last.requestCount}): a replay`,
    };
  }
  if (request.timestamp && last.timestamp && request.timestamp <= last.timestamp) {
    return {
      field: 'timestamp',
      message: `Timestamp ${request.timestamp} is not after the last accepted (${last.timestamp}): a replay`,
    };
  }
  return null;
}

export type MetricValues = Record<string, unknown>;

/** The request's data and history in simple names, each history step with its timestamp. */
export function metricsReadings(
  request: MetricsRequest,
  format: MetricsDataFormat | null,
  receivedAt: number,
): { collectedAt: number; data: MetricValues; history: (MetricValues & { timestamp: number })[] } {
  const fmt =
    format ??
    (toPlain(pyGet(request.tree, 'data_format') ?? { t: 'lit', v: null }) as MetricsDataFormat | null);
  const dataNode = pyGet(request.tree, 'data');
  let data: MetricValues = {};
  if (dataNode?.t === 'obj') {
    data = Object.fromEntries(dataNode.entries.map(([k, v]) => [SIMPLE[k] ?? k, toPlain(v)]));
  } else if (dataNode?.t === 'arr' && dataNode.items.length > 0) {
    const order = fmt?.data_order;
    if (!Array.isArray(order)) {
      throw new MetricsRequestError(
        'data',
        'Condensed data needs a data format with data_order (send it as dfo)',
      );
    }
    if (dataNode.items.length > order.length) {
      throw new MetricsRequestError(
        'data',
        `data has ${dataNode.items.length} values; the data format names ${order.length}`,
      );
    }
    order.forEach((name, k) => {
      const item = dataNode.items[k];
      data[SIMPLE[name] ?? name] = item === undefined ? null : toPlain(item);
    });
  }
  const dct = wholeNumber(
    pyGet(request.tree, 'data_collection_timestamp'),
    'data_collection_timestamp',
    MAX_METRICS_TIMESTAMP,
  );
  const collectedAt = dct ?? request.timestamp ?? receivedAt;
  const historyNode = pyGet(request.tree, 'historical_data');
  const steps = historyNode?.t === 'arr' ? historyNode.items : [];
  const history: (MetricValues & { timestamp: number })[] = [];
  let last = collectedAt;
  const historyOrder = fmt?.historical_data_order;
  steps.forEach((step, k) => {
    const values: MetricValues = {};
    if (step.t === 'arr') {
      if (!Array.isArray(historyOrder)) {
        throw new MetricsRequestError(
          'historical_data',
          'Condensed history needs a data format with historical_data_order',
        );
      }
      if (step.items.length > historyOrder.length) {
        throw new MetricsRequestError(
          'historical_data',
          `A history step has more values than the data format names`,
        );
      }
      step.items.forEach((item, n) => {
        values[historyOrder[n] as string] = toPlain(item);
      });
    } else if (step.t === 'obj') {
      for (const [key, v] of step.entries) {
        const name = /^\d+$/.test(key) && Array.isArray(historyOrder) ? historyOrder[Number(key)] : undefined;
        values[name ?? key] = toPlain(v);
      }
    } else {
      throw new MetricsRequestError('historical_data', 'Each history step must be an object or a list');
    }
    // Timing as the specification says: a relative time moves on from the last step, an explicit
    // timestamp resets it, otherwise each step is one interval after the previous.
    const relative = values.relative_time;
    if (relative !== undefined && relative !== null) {
      last += Math.trunc(Number(relative));
      delete values.relative_time;
    } else if (typeof values.timestamp === 'number' && values.timestamp) {
      last = values.timestamp;
    } else if (k > 0) {
      const interval = fmt?.historical_data_interval;
      if (typeof interval !== 'number') {
        throw new MetricsRequestError(
          'historical_data',
          'History steps need a timestamp, a relative_time or a data format interval',
        );
      }
      last += Math.trunc(interval);
    }
    if (!Number.isFinite(last) || last < 0 || last > MAX_METRICS_TIMESTAMP) {
      throw new MetricsRequestError('historical_data', `History step ${k + 1} has no valid time`);
    }
    history.push({ ...values, timestamp: last });
  });
  return { collectedAt, data, history };
}

/** What the server answers with. */
export interface MetricsAnswerInput {
  tokens?: string[];
  activeUntil?: number;
  secondsLeft?: number;
  settings?: Record<string, unknown>;
  extraData?: Record<string, unknown>;
}

/** The answer in condensed names, signed with data auth. */
export function metricsAnswer(
  request: Pick<MetricsRequest, 'serialNumber' | 'timestamp' | 'requestCount'>,
  answer: MetricsAnswerInput,
  secretKey: SecretKey,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (answer.tokens !== undefined) out.tkl = answer.tokens;
  if (answer.activeUntil !== undefined) out.auts = answer.activeUntil;
  if (answer.secondsLeft !== undefined) out.asl = answer.secondsLeft;
  if (answer.settings !== undefined) out.st = answer.settings;
  if (answer.extraData !== undefined) out.ed = answer.extraData;
  let payload = request.serialNumber;
  if (request.timestamp) payload += String(request.timestamp);
  if (request.requestCount) payload += String(request.requestCount);
  if (answer.activeUntil) payload += String(answer.activeUntil);
  if (answer.secondsLeft) payload += String(answer.secondsLeft);
  if (answer.tokens?.length) payload += compact(answer.tokens);
  if (answer.settings && Object.keys(answer.settings).length) payload += compact(answer.settings);
  if (answer.extraData && Object.keys(answer.extraData).length) payload += compact(answer.extraData);
  out.a = `da${metricsHash(payload, secretKey)}`;
  return out;
}

function compact(value: unknown): string {
  return pyDumps(parsePyJson(JSON.stringify(value)));
}
