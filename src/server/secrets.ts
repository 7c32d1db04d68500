import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The application secret: from APP_SECRET, else generated once into DATA_DIR/app-secret.
 * Several instances on one database must share it (set APP_SECRET).
 */
export function loadAppSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.resolve(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

/** Derives independent keys for independent purposes from the one secret. */
export class Keyring {
  private readonly root: Buffer;

  constructor(secret: string) {
    this.root = createHash('sha256').update(secret).digest();
  }

  /** Each purpose's key, derived once: every request signs and checks with a few of them. */
  private readonly keys = new Map<string, Buffer>();

  private key(purpose: string): Buffer {
    let key = this.keys.get(purpose);
    if (!key) {
      key = createHmac('sha256', this.root).update(purpose).digest();
      // Purposes are a handful of constants; past a bound they are derived each time instead.
      if (this.keys.size < 64) this.keys.set(purpose, key);
    }
    return key;
  }

  sign(purpose: string, value: string): string {
    return createHmac('sha256', this.key(purpose)).update(value).digest('base64url');
  }

  verify(purpose: string, value: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(purpose, value));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /** AES-256-GCM; output is `v1.iv.tag.ciphertext` in base64url. */
  encrypt(purpose: string, plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key(`encrypt:${purpose}`), iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), body]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  decrypt(purpose: string, sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined)
      throw new Error('Unrecognised encrypted value');
    const decipher = createDecipheriv(
      'aes-256-gcm',
      this.key(`encrypt:${purpose}`),
      Buffer.from(iv, 'base64url'),
    );
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
