import type { Logger } from 'pino';
import type { Queryable } from '../db/types.js';
import { insertRow } from './util.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  language: string;
  clientId: number;
}

export interface Mailer {
  /** 'smtp' sends after the response (never delays it); 'outbox' writes REST_Mail in the caller's transaction. */
  readonly kind: 'smtp' | 'outbox';
  send(q: Queryable, mail: Mail): Promise<void>;
}

/**
 * Development outbox: mails are stored in REST_Mail (IsSent = N) where tests and developers read
 * them. Used whenever no SMTP server is configured.
 */
export class OutboxMailer implements Mailer {
  readonly kind = 'outbox' as const;
  async send(q: Queryable, m: Mail): Promise<void> {
    await insertRow(q, 'REST_Mail', { mailto: m.to, subject: m.subject, bodytext: m.text, language: m.language, issent: 'N' }, { clientId: m.clientId });
  }
}

/** SMTP through nodemailer, configured by DICTUM_SMTP_URL (smtp[s]://user:pass@host:port) and DICTUM_SMTP_FROM. */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp' as const;
  #transport: Promise<{ sendMail(o: Record<string, unknown>): Promise<unknown> }> | null = null;

  constructor(
    private readonly url: string,
    private readonly from: string,
    private readonly log: Logger,
  ) {}

  async send(_q: Queryable, m: Mail): Promise<void> {
    this.#transport ??= import('nodemailer').then((nm) => nm.default.createTransport(this.url));
    // Delivery runs in the background so that the response time does not depend on the mail server.
    setImmediate(() => {
      this.#transport!
        .then((t) => t.sendMail({ from: this.from, to: m.to, subject: m.subject, text: m.text }))
        .catch((err: unknown) => this.log.error({ err: err instanceof Error ? err.message : String(err) }, 'password reset mail could not be sent'));
    });
  }
}

/**
 * SMTP when DICTUM_SMTP_URL is set (smtp:// or smtps://, user and password in the URL), else the
 * development outbox. A malformed URL stops the start with a clear message.
 */
export function createMailer(env: NodeJS.ProcessEnv, log: Logger): Mailer {
  const url = env.DICTUM_SMTP_URL?.trim();
  if (!url) return new OutboxMailer();
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('Configuration DICTUM_SMTP_URL must be a URL such as smtp://user:password@host:587');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') throw new Error('Configuration DICTUM_SMTP_URL must start with smtp:// or smtps://');
  return new SmtpMailer(url, env.DICTUM_SMTP_FROM?.trim() || 'no-reply@localhost', log);
}

interface Template {
  subject: string;
  body: (code: string, minutes: number, name: string) => string;
}

/** Password reset mail templates per language (AD_Language); others fall back to en_US. */
export const RESET_TEMPLATES: Record<string, Template> = {
  en_US: {
    subject: 'Your password reset code',
    body: (code, minutes, name) =>
      `Hello ${name},\n\nyour password reset code is ${code}. It is valid for ${minutes} minutes and can be used once.\n\nIf you did not ask to reset your password, ignore this message.\n`,
  },
  de_DE: {
    subject: 'Ihr Code zum Zurücksetzen des Passworts',
    body: (code, minutes, name) =>
      `Hallo ${name},\n\nIhr Code zum Zurücksetzen des Passworts lautet ${code}. Er ist ${minutes} Minuten gültig und kann einmal verwendet werden.\n\nFalls Sie dies nicht angefordert haben, ignorieren Sie diese Nachricht.\n`,
  },
  es_CO: {
    subject: 'Su código para restablecer la contraseña',
    body: (code, minutes, name) =>
      `Hola ${name},\n\nsu código para restablecer la contraseña es ${code}. Es válido durante ${minutes} minutos y se puede usar una vez.\n\nSi no lo solicitó, ignore este mensaje.\n`,
  },
  fr_FR: {
    subject: 'Votre code de réinitialisation du mot de passe',
    body: (code, minutes, name) =>
      `Bonjour ${name},\n\nvotre code de réinitialisation du mot de passe est ${code}. Il est valable ${minutes} minutes et ne peut être utilisé qu'une fois.\n\nSi vous n'êtes pas à l'origine de cette demande, ignorez ce message.\n`,
  },
};

export function resetTemplate(language: string): { language: string; template: Template } {
  if (RESET_TEMPLATES[language]) return { language, template: RESET_TEMPLATES[language]! };
  const prefix = language.slice(0, 2);
  const match = Object.keys(RESET_TEMPLATES).find((k) => k.startsWith(prefix));
  return match ? { language: match, template: RESET_TEMPLATES[match]! } : { language: 'en_US', template: RESET_TEMPLATES.en_US! };
}
