/**
 * The built-in spam scorer: a few SpamAssassin-style rules over the parsed message and the
 * sender authentication results. Each matching rule adds its score; at the threshold
 * (MAIL_SPAM_THRESHOLD) the message is filed into Junk. spamd, when configured, adds its own.
 */

export interface SpamInput {
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
  readonly fromEmail: string;
  readonly fromName: string;
  /** Authentication results as recorded at SMTP time ('pass', 'fail', 'none', ...). */
  readonly spf?: string;
  readonly dkim?: string;
  readonly dmarc?: string;
}

export interface SpamRuleHit {
  readonly rule: string;
  readonly score: number;
}

export interface SpamVerdict {
  readonly score: number;
  readonly hits: readonly SpamRuleHit[];
}

/** The Generic Test for Unsolicited Bulk Email: any scorer must treat it as spam. */
export const GTUBE = 'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X';

const PHRASES = [
  'viagra',
  'lottery',
  'you have won',
  'click here',
  '100% free',
  'act now',
  'wire transfer',
  'claim your prize',
  'risk-free',
  'limited time offer',
];

interface Rule {
  readonly name: string;
  readonly score: number;
  readonly test: (m: SpamInput, text: string) => boolean;
}

const RULES: readonly Rule[] = [
  { name: 'GTUBE', score: 1000, test: (_, text) => text.includes(GTUBE) },
  { name: 'DMARC_FAIL', score: 3, test: (m) => m.dmarc === 'fail' },
  { name: 'SPF_FAIL', score: 1.5, test: (m) => m.spf === 'fail' },
  { name: 'DKIM_INVALID', score: 1, test: (m) => m.dkim === 'fail' },
  {
    name: 'SUBJ_ALL_CAPS',
    score: 1.5,
    test: (m) => {
      const letters = m.subject.replace(/[^A-Za-z]/g, '');
      return letters.length >= 10 && letters === letters.toUpperCase();
    },
  },
  { name: 'MANY_EXCLAMATIONS', score: 1, test: (m) => /!{3,}/.test(m.subject) || /!{5,}/.test(m.text) },
  {
    name: 'HTML_ONLY',
    score: 1,
    test: (m) => m.html !== undefined && m.html.length > 0 && m.text.trim().length === 0,
  },
  {
    name: 'FROM_NAME_OTHER_ADDRESS',
    score: 1,
    test: (m) => {
      const inName = /[^\s<>"]+@[^\s<>"]+/.exec(m.fromName)?.[0];
      return inName !== undefined && inName.toLowerCase() !== m.fromEmail.toLowerCase();
    },
  },
];

const PHRASE_SCORE = 1;
const PHRASE_CAP = 4;

export function scoreSpam(message: SpamInput): SpamVerdict {
  const text = `${message.subject}\n${message.text}\n${message.html ?? ''}`;
  const lower = text.toLowerCase();
  const hits: SpamRuleHit[] = RULES.filter((rule) => rule.test(message, text)).map(({ name, score }) => ({
    rule: name,
    score,
  }));
  const phrases = PHRASES.filter((phrase) => lower.includes(phrase)).length;
  if (phrases > 0) hits.push({ rule: 'SPAM_PHRASES', score: Math.min(phrases * PHRASE_SCORE, PHRASE_CAP) });
  return { score: hits.reduce((sum, hit) => sum + hit.score, 0), hits };
}

export function isSpam(score: number, threshold: number): boolean {
  return score >= threshold;
}
