/**
 * JSON read and written as Python's `json` module does, for OpenPAYGO Metrics signatures: the
 * official library signs `json.dumps(value, separators=(",", ":"))` of the data it parsed, so a
 * server must re-serialise a device's data exactly as Python would. `JSON.parse` cannot: it turns
 * `12.0` into `12` and rounds large integers. This parser keeps each number's text instead.
 *
 * Python's output: integers as written (arbitrary size, `-0` as `0`); floats as `repr()` (the
 * shortest round-trip digits, fixed notation for exponents -4 to 15 with a `.0` when whole,
 * otherwise `1e+16` / `1e-05`); strings with every character outside ASCII escaped (`\u00e7`,
 * surrogate pairs above U+FFFF) and `\" \\ \n \r \t \b \f`, other control characters as `\u00XX`.
 */

export type PyJson =
  | { t: 'obj'; entries: [string, PyJson][] }
  | { t: 'arr'; items: PyJson[] }
  | { t: 'str'; v: string }
  | { t: 'num'; raw: string }
  | { t: 'lit'; v: boolean | null };

export class PyJsonError extends Error {}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const MAX_DEPTH = 64;

/** Parses JSON text keeping numbers as written. Throws PyJsonError on malformed text. */
export function parsePyJson(text: string): PyJson {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text.charAt(i))) i++;
  };
  const fail = (what: string): never => {
    throw new PyJsonError(`${what} at position ${i}`);
  };
  const str = (): string => {
    i++; // opening quote
    let out = '';
    for (;;) {
      if (i >= text.length) fail('Unterminated string');
      const c = text.charAt(i);
      if (c === '"') {
        i++;
        return out;
      }
      if (c === '\\') {
        const e = text.charAt(i + 1);
        const simple: Record<string, string> = {
          '"': '"',
          '\\': '\\',
          '/': '/',
          b: '\b',
          f: '\f',
          n: '\n',
          r: '\r',
          t: '\t',
        };
        if (e in simple) {
          out += simple[e];
          i += 2;
        } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          out += String.fromCharCode(Number.parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
        } else fail('Bad escape');
      } else if (c < ' ') fail('Control character in string');
      else {
        out += c;
        i++;
      }
    }
  };
  const value = (depth: number): PyJson => {
    if (depth > MAX_DEPTH) fail('Too deeply nested');
    ws();
    const c = text.charAt(i);
    if (c === '{') {
      i++;
      const entries: [string, PyJson][] = [];
      ws();
      if (text.charAt(i) === '}') {
        i++;
        return { t: 'obj', entries };
      }
      for (;;) {
        ws();
        if (text.charAt(i) !== '"') fail('Expected a key');
        const key = str();
        ws();
        if (text.charAt(i) !== ':') fail('Expected ":"');
        i++;
        const v = value(depth + 1);
        // Python keeps a repeated key's first place and its last value.
        const at = entries.findIndex(([k]) => k === key);
        if (at >= 0) entries[at] = [key, v];
        else entries.push([key, v]);
        ws();
        if (text.charAt(i) === ',') i++;
        else if (text.charAt(i) === '}') {
          i++;
          return { t: 'obj', entries };
        } else fail('Expected "," or "}"');
      }
    }
    if (c === '[') {
      i++;
      const items: PyJson[] = [];
      ws();
      if (text.charAt(i) === ']') {
        i++;
        return { t: 'arr', items };
      }
      for (;;) {
        items.push(value(depth + 1));
        ws();
        if (text.charAt(i) === ',') i++;
        else if (text.charAt(i) === ']') {
          i++;
          return { t: 'arr', items };
        } else fail('Expected "," or "]"');
      }
    }
    if (c === '"') return { t: 'str', v: str() };
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return { t: 'lit', v };
      }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) return fail('Unexpected character');
    i += m[0].length;
    if (!/^-?\d+$/.test(m[0]) && !Number.isFinite(Number(m[0]))) fail('Number out of range');
    return { t: 'num', raw: m[0] };
  };
  const result = value(0);
  ws();
  if (i !== text.length) fail('Unexpected text after the JSON value');
  return result;
}

/** Python's repr() of a float. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa = '', expText = '0'] = x.toExponential().split('e');
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const exp = Number(expText);
  const sign = negative ? '-' : '';
  if (exp >= -4 && exp < 16) {
    let text: string;
    if (exp < 0) text = `0.${'0'.repeat(-exp - 1)}${digits}`;
    else if (digits.length <= exp + 1) text = `${digits}${'0'.repeat(exp + 1 - digits.length)}.0`;
    else text = `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
    return sign + text;
  }
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const e = `${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return `${sign}${m}e${e}`;
}

function pyNumber(raw: string): string {
  if (/^-?\d+$/.test(raw)) return BigInt(raw).toString();
  return pyFloatRepr(Number(raw));
}

function pyString(s: string): string {
  let out = '"';
  for (let k = 0; k < s.length; k++) {
    const code = s.charCodeAt(k);
    const c = s.charAt(k);
    if (c === '"') out += '\\"';
    else if (c === '\\') out += '\\\\';
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (c === '\t') out += '\\t';
    else if (c === '\b') out += '\\b';
    else if (c === '\f') out += '\\f';
    else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += c;
  }
  return `${out}"`;
}

/** `json.dumps(value, separators=(",", ":"))` of what Python would have parsed. */
export function pyDumps(node: PyJson): string {
  switch (node.t) {
    case 'obj':
      return `{${node.entries.map(([k, v]) => `${pyString(k)}:${pyDumps(v)}`).join(',')}}`;
    case 'arr':
      return `[${node.items.map(pyDumps).join(',')}]`;
    case 'str':
      return pyString(node.v);
    case 'num':
      return pyNumber(node.raw);
    case 'lit':
      return node.v === null ? 'null' : String(node.v);
  }
}

/** Python's str() of a scalar (a timestamp or count in a signature). */
export function pyStr(node: PyJson): string {
  if (node.t === 'str') return node.v;
  if (node.t === 'lit') return node.v === null ? 'None' : node.v ? 'True' : 'False';
  if (node.t === 'num') return pyNumber(node.raw);
  return pyDumps(node);
}

/** Python's truthiness. */
export function pyTruthy(node: PyJson | undefined): boolean {
  if (!node) return false;
  switch (node.t) {
    case 'obj':
      return node.entries.length > 0;
    case 'arr':
      return node.items.length > 0;
    case 'str':
      return node.v !== '';
    case 'num':
      return Number(node.raw) !== 0;
    case 'lit':
      return node.v === true;
  }
}

/** The plain JavaScript value (numbers as numbers), for storage and display. */
export function toPlain(node: PyJson): unknown {
  switch (node.t) {
    case 'obj':
      return Object.fromEntries(node.entries.map(([k, v]) => [k, toPlain(v)]));
    case 'arr':
      return node.items.map(toPlain);
    case 'str':
      return node.v;
    case 'num':
      return Number(node.raw);
    case 'lit':
      return node.v;
  }
}

/** The entry of an object node. */
export function pyGet(node: PyJson | undefined, key: string): PyJson | undefined {
  if (node?.t !== 'obj') return undefined;
  return node.entries.find(([k]) => k === key)?.[1];
}
