import { SMTPServer } from 'smtp-server';
import { startTestServer, type Backend } from './harness.ts';

export interface ReceivedMail {
  to: string[];
  raw: string;
  subject: string;
  text: string;
}

function decodeBody(raw: string): string {
  const split = raw.indexOf('\n\n');
  const headers = raw.slice(0, split);
  let body = raw.slice(split + 2);
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    body = Buffer.from(
      body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8');
  }
  return body;
}

function decodeSubject(raw: string): string {
  const line = /^subject:(.*(?:\n[ \t].*)*)/im.exec(raw)?.[1] ?? '';
  return line
    .replace(/\n[ \t]/g, ' ')
    .trim()
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, kind: string, data: string) =>
      kind.toLowerCase() === 'b'
        ? Buffer.from(data, 'base64').toString('utf8')
        : Buffer.from(
            data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (__, h) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

/** A real SMTP server on loopback that keeps what it receives. */
export async function startSmtpPeer() {
  const mails: ReceivedMail[] = [];
  /** How long each mail's DATA is held before it is accepted, as a slow relay would (holdMails). */
  let holdMs = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8').replace(/\r\n/g, '\n');
        setTimeout(() => {
          mails.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            subject: decodeSubject(raw),
            text: decodeBody(raw),
          });
          callback();
        }, holdMs);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** The 6-digit code of the newest mail to an address. */
    codeFor(address: string): string {
      const mail = [...mails].reverse().find((m) => m.to.includes(address));
      const code = mail && /\b(\d{6})\b/.exec(mail.text)?.[1];
      if (!code) throw new Error(`no code mailed to ${address}`);
      return code;
    },
    /** From now on each mail is accepted only after `ms`, as from a slow relay (0: at once). */
    holdMails(ms: number): void {
      holdMs = ms;
    },
    /** Waits (up to `timeoutMs`) until `count` mails to an address have come; the password reset mails after answering. */
    async waitForMails(address: string, count = 1, timeoutMs = 5000): Promise<ReceivedMail[]> {
      for (
        const started = Date.now();
        Date.now() - started < timeoutMs;
        await new Promise((resolve) => setTimeout(resolve, 20))
      ) {
        const received = mails.filter((m) => m.to.includes(address));
        if (received.length >= count) return received;
      }
      throw new Error(`fewer than ${count} mails came to ${address}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpPeer = Awaited<ReturnType<typeof startSmtpPeer>>;

/** A test server whose mail goes to a real SMTP peer; close() stops both. */
export async function startServerWithMail(backend: Backend, env: Record<string, string> = {}) {
  const smtp = await startSmtpPeer();
  const server = await startTestServer(backend, { env: { SMTP_URL: smtp.url, ...env } });
  return {
    server,
    smtp,
    close: async () => {
      await server.close();
      await smtp.close();
    },
  };
}
