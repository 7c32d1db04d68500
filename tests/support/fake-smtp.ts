import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  messageId: string | null;
  subject: string | null;
  /** The message text (headers removed, dot-stuffing undone). */
  text: string;
  raw: string;
}

/**
 * A tiny local SMTP server (node:net) speaking enough of RFC 5321 for nodemailer: EHLO with
 * AUTH PLAIN/LOGIN (no STARTTLS, so the test runs in clear), MAIL, RCPT, DATA, RSET, NOOP, QUIT.
 * A wrong user or password is refused 535; a recipient listed in `rejectRecipients` 550. Mail
 * whose Message-ID it has taken before is accepted and not kept again (as a receiving server that
 * de-duplicates would): `mails` holds each message once, `deliveries` counts every DATA.
 */
export class FakeSmtpServer {
  readonly mails: ReceivedMail[] = [];
  deliveries = 0;
  authFailures = 0;
  readonly rejectRecipients = new Set<string>();
  /** The next N messages are answered at the end of DATA with this reply (then it stops). */
  failNext = 0;
  failReply = '451 4.3.0 Temporary failure, try again later';
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  constructor(
    readonly user = 'mailer',
    readonly password = 'smtp-secret',
  ) {}

  async start(): Promise<number> {
    this.server = createServer((socket) => this.session(socket));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return this.port;
  }

  get port(): number {
    const address = this.server?.address() as AddressInfo | undefined;
    return address?.port ?? 0;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private session(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const reply = (line: string) => socket.write(`${line}\r\n`);
    let buffer = '';
    let mode: 'command' | 'data' | 'auth-user' | 'auth-pass' = 'command';
    let authUser = '';
    let authed = false;
    let envelope: { from: string; to: string[] } = { from: '', to: [] };
    let data: string[] = [];

    const login = (user: string, password: string) => {
      authed = user === this.user && password === this.password;
      if (!authed) this.authFailures += 1;
      reply(authed ? '235 2.7.0 Authentication successful' : '535 5.7.8 Authentication credentials invalid');
    };
    const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');

    const finishData = () => {
      this.deliveries += 1;
      const raw = data.map((line) => (line.startsWith('..') ? line.slice(1) : line)).join('\r\n');
      data = [];
      mode = 'command';
      if (this.failNext > 0) {
        this.failNext -= 1;
        reply(this.failReply);
        return;
      }
      const split = raw.indexOf('\r\n\r\n');
      const head = split >= 0 ? raw.slice(0, split) : raw;
      const header = (name: string) =>
        head
          .replace(/\r\n[ \t]+/g, ' ')
          .split('\r\n')
          .find((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`))
          ?.slice(name.length + 1)
          .trim() ?? null;
      const messageId = header('Message-ID');
      if (!messageId || !this.mails.some((mail) => mail.messageId === messageId))
        this.mails.push({
          from: envelope.from,
          to: envelope.to,
          messageId,
          subject: header('Subject'),
          text: split >= 0 ? raw.slice(split + 4) : '',
          raw,
        });
      envelope = { from: '', to: [] };
      reply(`250 2.0.0 OK queued as fake-${this.deliveries}`);
    };

    const command = (line: string) => {
      if (mode === 'data') {
        if (line === '.') finishData();
        else data.push(line);
        return;
      }
      if (mode === 'auth-user') {
        authUser = decode(line);
        mode = 'auth-pass';
        reply('334 UGFzc3dvcmQ6');
        return;
      }
      if (mode === 'auth-pass') {
        mode = 'command';
        login(authUser, decode(line));
        return;
      }
      const [verb = '', ...rest] = line.split(' ');
      const argument = rest.join(' ');
      switch (verb.toUpperCase()) {
        case 'EHLO':
          reply('250-fake.smtp.test');
          reply('250-AUTH PLAIN LOGIN');
          reply('250 8BITMIME');
          return;
        case 'HELO':
          return reply('250 fake.smtp.test');
        case 'AUTH': {
          const [method = '', initial] = argument.split(' ');
          if (method.toUpperCase() === 'PLAIN') {
            const [, user = '', password = ''] = decode(initial ?? '').split('\0');
            return login(user, password);
          }
          if (method.toUpperCase() === 'LOGIN') {
            if (initial) {
              authUser = decode(initial);
              mode = 'auth-pass';
              return reply('334 UGFzc3dvcmQ6');
            }
            mode = 'auth-user';
            return reply('334 VXNlcm5hbWU6');
          }
          return reply('504 5.5.4 Unrecognized authentication type');
        }
        case 'MAIL':
          if (!authed) return reply('530 5.7.0 Authentication required');
          envelope = { from: argument.replace(/^FROM:\s*<?([^>\s]*)>?.*$/i, '$1'), to: [] };
          return reply('250 2.1.0 OK');
        case 'RCPT': {
          const to = argument.replace(/^TO:\s*<?([^>\s]*)>?.*$/i, '$1');
          if (this.rejectRecipients.has(to)) return reply('550 5.1.1 No such user here');
          envelope.to.push(to);
          return reply('250 2.1.5 OK');
        }
        case 'DATA':
          if (!envelope.to.length) return reply('503 5.5.1 No valid recipients');
          mode = 'data';
          return reply('354 End data with <CR><LF>.<CR><LF>');
        case 'RSET':
          envelope = { from: '', to: [] };
          return reply('250 2.0.0 OK');
        case 'NOOP':
          return reply('250 2.0.0 OK');
        case 'QUIT':
          reply('221 2.0.0 Bye');
          socket.end();
          return;
        default:
          return reply('502 5.5.2 Command not recognized');
      }
    };

    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        command(line);
      }
    });
    reply('220 fake.smtp.test ESMTP ready');
  }
}
