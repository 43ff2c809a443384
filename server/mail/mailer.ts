import nodemailer from 'nodemailer';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Logger } from '../logger.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  headers?: Record<string, string>;
}
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  readonly kind: 'smtp' | 'outbox';
}

/**
 * SMTP through nodemailer when SMTP_URL is set; otherwise each mail becomes an .eml file in the
 * outbox folder (and its subject is logged), so a local site works without a mail server.
 */
export function createMailer(options: { smtpUrl?: string; outboxDir: string; from: string; logger: Logger }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      kind: 'smtp',
      async send(mail) {
        await transport.sendMail({ from: options.from, ...mail });
        options.logger.info('mail sent', { to: mail.to, subject: mail.subject });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async send(mail) {
      const info = await transport.sendMail({ from: options.from, ...mail });
      await mkdir(options.outboxDir, { recursive: true });
      const file = join(
        options.outboxDir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}.eml`,
      );
      await writeFile(file, info.message as Buffer);
      options.logger.info('mail written to the outbox', { to: mail.to, subject: mail.subject, file });
    },
  };
}
