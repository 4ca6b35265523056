// Secret lint: finds credentials in text before it can become a memory. Each format rule is
// written from the token format its provider documents (prefixes, lengths, alphabets; see
// secret-rules.ts), plus keyword context (`password = …`, "the password for the box is …"), URLs
// with a password, private key blocks, JWTs and a Shannon entropy rule for long random-looking
// runs. A finding names its rule and position and carries a masked excerpt — never the secret.
//
// Disguises: the rules also run over a normalised view of the text (invisible characters removed,
// full-width letters, escapes and entities decoded, wrapped tokens joined) and over base64 and hex
// segments that decode to text (secret-normalise.ts). Such a finding is reported at the span of
// the original text that carries the secret, with `transform` naming what was taken off.
//
// Speed: a rule's regex runs only when one of its keywords occurs in the lower-cased text (one
// scan finds them all; the few rules without a keyword always run). A view is linted only in
// windows around what it changed, and decoding is capped per segment and two levels deep.

import {
  decodedSegments,
  type NormalisedText,
  normaliseText,
  type SourceSpan,
  transformBit,
  transformNames,
} from './secret-normalise.js';
import { B, E, E_DASH, FORMAT_RULES, type Rule, type SecretSeverity } from './secret-rules.js';
import { lineStarts, position } from './text-position.js';

export type { SecretSeverity } from './secret-rules.js';

export interface SecretFinding {
  rule: string;
  severity: SecretSeverity;
  /** 1-based line of the secret's first character. */
  line: number;
  /** 1-based column (UTF-16 code units, as editors count them) of the secret's first character. */
  column: number;
  /** 0-based offset of the secret in the text (UTF-16 code units). */
  offset: number;
  /** Length of the span of the text that carries the secret (its disguise included). */
  length: number;
  /** The masked secret: at most its first four characters when it is long enough to spare them, then its length. */
  excerpt: string;
  /**
   * Set when the secret was found only after taking a disguise off: the transforms joined by `+`
   * (`nfkc`, `zero-width`, `wrapped`, `html-entity`, `url-escape`, `json-escape`, `base64`, `hex`).
   * The excerpt then masks the secret as decoded; offset and length still cover the original span.
   */
  transform?: string;
}

/** Shannon entropy threshold (bits per character) of the entropy rule. */
export const ENTROPY_MIN_BITS = 4.0;
/** Shortest run the entropy rule looks at: below this, random-looking identifiers are too common. */
export const ENTROPY_MIN_RUN = 20;

const PLACEHOLDER =
  /^(?:\$\{?[A-Za-z_][\w.]*\}?|\$\(.*\)|%\(\w+\)s|%[sd]|%[A-Za-z_]\w*%|__[A-Za-z][\w]*__|@@\w+@@|#\{.*\}|\{\{.*\}\}|\{[A-Za-z_][\w.-]*\}|<[^>]*>|\[[^\]]*\]|(?:process\.env|os\.environ|env|ENV|System\.getenv|getenv|secrets\.|vars\.)\b.*|[x*•.#_?-]+|(?:true|false|null|none|nil|undefined|required|optional|string|redacted|hidden|secret|secrets|password|passwd|pass|pwd|changeme|example|placeholder|dummy|fake|test|todo|tbd|\.\.\.)\b.*|(?:your|my)[_-]?(?:own[_-]?)?(?:password|passwd|pass|secret|token|key|api[_-]?key|app|user|db|[a-z]+[_-](?:key|token|secret|password))\b.*)$/i;

/**
 * Words and shapes that say a value is a stand-in, anywhere in it: documentation keys (AWS's
 * documented example key ends in EXAMPLE), `your-token-here`, masks (`****`, `xxxx`), templates.
 */
const PLACEHOLDER_MARK =
  /example|placeholder|changeme|change[_-]me|replace[_-]?me|dummy|redacted|sample|your[_-]?(?:own[_-]?)?(?:token|key|secret|password|pass|api|access|app|client)|(?:token|key|secret|password)[_-]?here|insert[_-]|x{5,}|X{5,}|\*{3,}|•{3,}|\.{3}|…|<[^>]*>|\$\{|\{\{/i;

/** A token body no generator would produce: one short unit repeated, or an alphabet written out. */
const FAKE_BODY = /(.{1,4})\1{4,}|abcdefgh|ABCDEFGH|01234567|12345678/;

/**
 * Values their providers publish by design: Stripe publishable keys, Mapbox public tokens, SSH
 * public keys. A `key = …` or a high-entropy run holding one is not a secret.
 */
const PUBLIC_VALUE = /^(?:pk_(?:live|test)_|pk\.eyJ|ssh-(?:rsa|ed25519|dss) |ecdsa-sha2-|AAAA[BC]3NzaC1)/;
// Encrypted at rest, safe to commit: sops `ENC[…]`, Bitnami sealed secrets (long base64 from "AgB"), Ansible Vault.
const ENCRYPTED_VALUE = /^(?:ENC\[|AgB[A-Za-z0-9+/]{200,}|\$ANSIBLE_VAULT;)/;

/**
 * Where a secret lives rather than the secret: secret-manager references (1Password `op://`, Vault,
 * AWS Secrets Manager ARNs, Google Secret Manager paths) and documentation's stock passwords.
 */
const REFERENCE_OR_STOCK =
  /^(?:[a-z][a-z0-9+.-]*:\/\/|arn:aws[\w-]*:|projects\/[^/]+\/secrets\/|vault:|ref\+|secretref:)|^(?:p[a@]ssw[o0]rd|passw0rd|test|foo(?:bar)?|demo)[\W_]*\d{0,6}[\W_]*$/i;

/** A value written where a real one would go, but a stand-in (`<password>`, `changeme`, `${VAR}`, `xxx`, `AKIA…EXAMPLE`). */
export function isPlaceholder(value: string): boolean {
  return (
    PLACEHOLDER.test(value) || PLACEHOLDER_MARK.test(value) || REFERENCE_OR_STOCK.test(value) || FAKE_BODY.test(value)
  );
}

/** Shannon entropy of `text` in bits per character. A hex string can never exceed log2(16) = 4.0. */
export function shannonEntropy(text: string): number {
  if (text.length === 0) return 0;
  // ASCII counted in an array (a 64 KiB run costs well under a millisecond), anything else by code point.
  const ascii = new Uint32Array(128);
  let others: Map<number, number> | undefined;
  let total = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.codePointAt(i)!;
    if (code > 0xffff) i += 1;
    total += 1;
    if (code < 128) ascii[code]! += 1;
    else {
      others ??= new Map();
      others.set(code, (others.get(code) ?? 0) + 1);
    }
  }
  let bits = 0;
  const add = (count: number) => {
    const p = count / total;
    bits -= p * Math.log2(p);
  };
  for (const count of ascii) if (count > 0) add(count);
  if (others) for (const count of others.values()) add(count);
  return bits;
}

// `token = randomBytes(32)`, `token: symbol)`, `secret = this.config.secret`: code, not a value.
// A dotted path is code when each segment reads as a name (`this.config.secret`, `settings.API_KEY`),
// not when one is a random run (`y.LiZPXXH7EDYUr` is a password with a dot in it).
const CODE_VALUE = /[()[\]{}<>]|^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
const DOTTED = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;
/** Code rather than a value: a call, a constant's name, or a dotted path whose pieces are words. */
const isCode = (value: string) => CODE_VALUE.test(value) || (DOTTED.test(value) && wordShare(value) >= 0.8);
const LOCAL_HOST = /^(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])$/i;

const classesOf = (text: string) => [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((c) => c.test(text)).length;

/**
 * Prefixes providers document for their tokens (`npm_`, `ghp_`, `glpat-`), with the rules of those
 * formats. A value under a keyword that carries one but not the documented length or alphabet
 * (`"npm_token": "npm_<20 characters>"`) is not that token: the format rule is the authority, so
 * the keyword rule does not report it (a longer value that begins with a well-formed token is that
 * token with text glued on, and is reported). Generic prefixes (`sk-`, `key-`, `secret_`) are left out.
 */
const DOCUMENTED_PREFIXES: [string, RegExp[]][] = (() => {
  const byPrefix = new Map<string, RegExp[]>();
  for (const rule of FORMAT_RULES)
    for (const keyword of rule.keywords) {
      if (keyword.length < 4 || !/[_.$-]$/.test(keyword) || /^(?:secret_|key-|api-|sdk-|pat-)$/.test(keyword)) continue;
      const patterns = byPrefix.get(keyword) ?? [];
      // Anchored at the value's start, without the end boundary: a token with a word glued on (a
      // wrapped token joined to the next line's first word) still has the documented shape.
      const body = rule.pattern.source.split(E_DASH).join('').split(E).join('');
      patterns.push(new RegExp(`^(?:${body})`, rule.pattern.flags.replace('g', '')));
      byPrefix.set(keyword, patterns);
    }
  return [...byPrefix];
})();

/**
 * A value that starts with a documented token prefix but is not a token of that format. `after`:
 * the text that follows it; a value that goes on after a line break may be a token wrapped, which
 * the joined view checks, so it is not ruled out here.
 */
function wrongShapeToken(value: string, after = ''): boolean {
  if (/^["'\x60]?\\?\r?\n[ \t]*[A-Za-z0-9]/.test(after)) return false;
  const lower = value.toLowerCase();
  const prefix = DOCUMENTED_PREFIXES.find(([keyword]) => lower.startsWith(keyword));
  return prefix !== undefined && !prefix[1].some((pattern) => pattern.test(value));
}

/** The few characters of the text after a matched value. */
function textAfter(value: string, match: RegExpExecArray): string {
  const end = match.index + match[0].lastIndexOf(value) + value.length;
  return match.input.slice(end, end + 8);
}

/** A key that names a password (`ADMIN_PASS`, `db_password`, `storePassword`, `pwd`). */
const PASSWORD_KEY = /pass(?:word|wd|phrase)?|pwd|(?<![A-Za-z])pw(?![A-Za-z])/i;
/** Words a `password` key is given that are settings or types, not passwords. */
const NOT_A_PASSWORD =
  /^(?:number|boolean|bool|int|integer|str|bytes|text|varchar|any|object|enabled?|disabled?|on|off|yes|no|auto|none|empty|blank|unset|omit|prompt|ask|stdin|env|file|keyring|keychain|vault|plain|plaintext|hashed|masked|sensitive|secure|text)$/i;

/**
 * Keyword-context values: a placeholder or an environment reference is not a secret; a short or
 * plain one is worth a warning. Under a password key any other value is a password, weak ones too
 * (`ADMIN_PASS=monkey`): a dictionary word is still the password to that account.
 */
function contextValue(value: string, key = '', after = ''): SecretSeverity | null {
  const bare = value.replace(/^["'`]|["'`,;]+$/g, '');
  const password = PASSWORD_KEY.test(key);
  if (bare.length < (password ? 4 : 8) || isPlaceholder(bare) || /^\d+$/.test(bare) || isCode(bare)) return null;
  if (PUBLIC_VALUE.test(bare) || ENCRYPTED_VALUE.test(bare) || wrongShapeToken(bare, after)) return null;
  // Words joined by hyphens (`not-the-token`, `no-such-session`) name things; as a password they are a passphrase worth a warning.
  if (/^[A-Za-z]+(?:[-_.][A-Za-z]+)+$/.test(bare)) return password && bare.length >= 12 ? 'warn' : null;
  if (password) return NOT_A_PASSWORD.test(bare) ? null : 'block';
  return bare.length >= 12 && classesOf(bare) >= 2
    ? 'block'
    : bare.length >= 8 && classesOf(bare) >= 3
      ? 'block'
      : 'warn';
}

/** A password on a command line: a placeholder or a variable (`-p$MYSQL_PWD`) is not one. */
function cliValue(value: string): SecretSeverity | null {
  if (isPlaceholder(value) || /^[$%]/.test(value) || isCode(value)) return null;
  return classesOf(value) >= 2 ? 'block' : 'warn';
}

// Values a sentence puts after "password is" that are not passwords: paths, URLs, addresses,
// versions, numbers with a unit, technical names with a number (sha256, base64, oauth2, ed25519).
const PROSE_NOT_VALUE =
  /^(?:[/~.]|[a-z][a-z0-9+.-]*:\/\/)|@[\w-]+\.[a-z]{2,}$|^v?\d+(?:\.\d+)+\w*$|^\d+(?:[-_]?[a-z]{1,12})$|^(?:sha|md|utf|base|rsa|aes|hs|rs|es|ed|x|v|ipv|http|https|oauth|tls|ssl|pbkdf|argon|scrypt|bcrypt|crc|ecdsa|p|chacha|blake|gpt|claude|o|win|ubuntu|node|python|java|es)[-_]?\d+[a-z]*$|\.(?:txt|json|env|ya?ml|pem|key|toml|ini|conf|cfg|sh|ts|js|py|md)$/i;

/**
 * A value said in a sentence ("the password for the build box is …"). Stricter than `key = value`:
 * prose is full of "the token is valid", "the password is stored in the vault". Dictionary words
 * (letters only, or words joined by - and _) are never secrets here; a value needs letters with
 * digits or symbols. `marked`: the sentence said "is", ":" or "=" before it (without that, only a
 * value of three character classes counts).
 */
function proseValue(value: string, marked: boolean, match?: RegExpExecArray): SecretSeverity | null {
  // "the hash of the password is …", "the token's sha256 is …": a digest of a secret, not the secret.
  if (match && DIGEST_WORDS.test(match.input.slice(Math.max(0, match.index - 32), match.index + match[0].length)))
    return null;
  const bare = value.replace(/^[("'`“‘]+/, '').replace(/[)"'`”’.,;:!?]+$/, '');
  if (bare.length < 8 || bare.length > 128) return null;
  if (isPlaceholder(bare) || isCode(bare) || PROSE_NOT_VALUE.test(bare)) return null;
  if (
    PUBLIC_VALUE.test(bare) ||
    ENCRYPTED_VALUE.test(bare) ||
    wrongShapeToken(bare, match ? textAfter(value, match) : '')
  )
    return null;
  if (/^[A-Za-z]+(?:[-_'][A-Za-z]+)*$/.test(bare) || /^[\d\s.,:/-]+$/.test(bare)) return null;
  const classes = classesOf(bare);
  if (!/[A-Za-z]/.test(bare) || !/[\d\W_]/.test(bare)) return null;
  if (classes >= 3) return 'block';
  return marked && classes >= 2 && bare.length >= 10 && shannonEntropy(bare) >= 3.0 ? 'block' : null;
}

/** A private key block: the armour alone (documentation, a truncated paste with "...") is not a key. */
const PRIVATE_KEY_RULE: Rule = {
  name: 'private-key-block',
  severity: 'block',
  keywords: ['private key'],
  // PEM (PKCS#1, PKCS#8, SEC1, OpenSSH, encrypted) and PGP armour; the whole block up to its END line when present.
  // The body never contains five dashes, so a scan for END stops at the next armour line (linear time).
  pattern:
    /-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----(?:(?:[^-]|-(?!----)){0,16384}-----END (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----)?/g,
  check: (secret, match) => {
    // With its END line the body is in the match; without, it is what follows the BEGIN line.
    const body = /-----END /.test(secret) ? secret : match.input.slice(match.index, match.index + secret.length + 96);
    const bare = body.replace(/-----[A-Z ]+-----/g, ' ').replace(/\\[nr]|[ \t\r\n]/g, '');
    return /[A-Za-z0-9+/]{24,}/.test(bare) ? 'block' : null;
  },
};

// The key names a value follows in `key = value` and in prose.
// Names of keys that are secrets (`encryption_key`, `ALGOLIA_ADMIN_KEY`), unlike `public_key`, `site_key`, `primary_key`.
const SECRET_KEY_NAME = String.raw`(?:wifi|wi-fi|wpa2?|wlan|network|encryption|signing|master|admin|secret|private|access|app|client|auth|license|shared|pre-?shared|webhook|hmac|jwt|cookie|root|service|account|deploy|bot|consumer|psk|api)[ _-]?key`;
const PROSE_KEY = String.raw`(?:passwords?|passphrases?|passcodes?|passwd|pass|pwd|pw|secrets?|(?:access |auth |api |bot |bearer )?tokens?|${SECRET_KEY_NAME}s?|apikeys?|credentials?|creds)`;
// "…password for the build box is …": a short phrase of prepositions and nouns between key and verb.
const PROSE_FILLER = String.raw`(?:[^\S\n]+(?:for|of|on|to|in|at|from|with|we|i|you|they)\b[^.\n:=;!?"'\x60]{0,48}?|[^\S\n]*\([^()\n]{1,32}\))?`;
const DIGEST_WORDS = /\b(?:hash(?:ed|es)?|digest|checksum|fingerprint|sha-?(?:1|256|384|512)|md5)\b/i;
// A value in a sentence: no spaces or quotes, and it does not end with the sentence's punctuation.
const PROSE_VALUE = String.raw`(?=[^\s"'\x60<>]{0,127}?[\d!#$%&*+/=?@^_~-])[^\s"'\x60”’<>]{7,127}[^\s"'\x60”’<>.,;:)」）。](?=[\s"'\x60”’<>.,;:)」）。]|$)`;
const PROSE_KEYWORDS = ['pass', 'pw', 'secret', 'token', 'key', 'credential'];
const PROSE_MARK = String.raw`(?:[^\S\n]*(?:[:=：]|→|->|=>)|[^\S\n]+(?:(?:is|was|are|were|will be|should be|has been|have been)(?:[^\S\n]+now)?(?:[^\S\n]+(?:set|changed|reset|updated) to)?|(?:set|changed|reset|updated) to|to|es|est|ist|är|jest|lautet)(?:[^\S\n]*:)?)`;

/**
 * A name that says its value is a secret (`README_API_KEY`, `SYSTEM_ACCESSTOKEN`, `storePassword`,
 * `ASANA_PAT`), not one that names an id, a public key, a place or a setting about the secret.
 */
function isSecretName(name: string): boolean {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  if (
    /(?:^|[_.-])(?:public|publishable|pub|site|primary|partition|sort|foreign|cache|idempotency|kms|lookup|map|gpg|pgp|ssh|routing|registry|index|hash|id|url|uri|endpoint|host|path|file|name|user|username|type|length|expiry|ttl|policy|min|max|header|prefix)$/.test(
      words,
    )
  )
    return false;
  return /pass|pwd|secret|token|credential|api_?key|(?:^|[_.-])(?:key|pat|auth)$/.test(words);
}

/** A value after its key in `key = value` forms: the key is what the match holds before the value. */
function keyedValue(secret: string, match: RegExpExecArray): SecretSeverity | null {
  return contextValue(secret, match[0].slice(0, match[0].lastIndexOf(secret)), textAfter(secret, match));
}

/** A value under a name (a table row, an env entry, `set -gx`): a secret when the name says so. */
function namedValue(secret: string, match: RegExpExecArray): SecretSeverity | null {
  const name = match[1] ?? '';
  return isSecretName(name) ? contextValue(secret, name, textAfter(secret, match)) : null;
}

/** Words that follow "with password" in a sentence about a feature, not a password's value. */
const PASSWORD_FEATURE =
  /^(?:auth|authentication|protection|protected|manager|managers|hashing|hash|hashes|reset|resets|rotation|policy|policies|login|logins|field|fields|prompt|prompts|expiry|expiration|change|changes|length|complexity|strength|storage|access|based|less|only|required|hint|hints|recovery|salt|vault|file|files|encryption|flow|flows|form|forms|input|update|updates|fallback|support|mode|option|options|enabled|disabled|set|instead|removed|stdin|env|from|in|of|as|that|which|the|a|an|here|there|again|too|first|once|you|your|it|sync|entry|dialog|screen|page|box|check|checks|validation|rules|requirements|history|generator|sharing|spraying|stuffing|leak|leaks)$/i;

/** A password a sentence names as such ("with password dragon"): weak words count, features and stand-ins do not. */
function weakProseValue(value: string): SecretSeverity | null {
  const bare = value.replace(/[.)]+$/, '');
  if (bare.length < 4 || PASSWORD_FEATURE.test(bare) || isPlaceholder(bare) || isCode(bare)) return null;
  if (PROSE_NOT_VALUE.test(bare) || /^[A-Za-z]+(?:-[A-Za-z]+)+$/.test(bare) || /^[A-Z][a-z]+$/.test(bare)) return null;
  return 'block';
}

const CONTEXT_RULES: Rule[] = [
  {
    name: 'jwt',
    severity: 'block',
    keywords: ['eyj'],
    // header.payload.signature, each base64url; the header and payload are JSON objects, so both start with eyJ.
    pattern: new RegExp(String.raw`${B}eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}`, 'g'),
    format: true,
  },
  {
    name: 'url-credentials',
    severity: 'block',
    keywords: ['://'],
    // scheme://user:password@host (a DSN) — the password is the secret; `redis://:password@host` has no user.
    pattern: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:@/"'<>]{0,128}:([^\s@/"'<>]{1,256})@([A-Za-z0-9.-]+|\[[0-9a-f:]+\])/gi,
    secretGroup: 1,
    // A placeholder is documentation; a password for a database on this machine is still worth a warning.
    check: (secret, match) =>
      isPlaceholder(secret) || /^\d{1,5}$/.test(secret) ? null : LOCAL_HOST.test(match[2] ?? '') ? 'warn' : 'block',
  },
  {
    name: 'authorization-header',
    severity: 'block',
    keywords: ['bearer', 'basic '],
    pattern: /\b(?:authorization\s*[:=]\s*["']?)?(?:bearer|basic)\s+([A-Za-z0-9._~+/-]{16,}=*)/gi,
    secretGroup: 1,
    check: (secret) => (classesOf(secret) >= 2 && !isPlaceholder(secret) ? 'block' : null),
  },
  {
    name: 'keyword-secret',
    severity: 'block',
    keywords: [
      'pass',
      'pwd',
      'pw',
      'secret',
      'token',
      'api_key',
      'apikey',
      'api-key',
      'api key',
      'private_key',
      'credential',
      'auth',
      'key',
    ],
    // `password = …`, `"api_key": "…"`, `export GITHUB_TOKEN=…`, `client_secret: …`, `DB_PASS=…`, `encryption_key = …`; the value is the secret.
    pattern: new RegExp(
      String.raw`(?:password|passwd|passphrase|(?<![A-Za-z])pass|pwd|(?<![A-Za-z])pw|secret|token|${SECRET_KEY_NAME}|apikey|credentials?)(?:[_-]?(?:key|id|value|b64|base64|enc|encoded|plain|raw|str|string|word))?["']?\s*(?::=|=>|[:=])\s*(?:<(?:code|kbd|tt|samp)>\s*)?(["'\x60]?)([^\s"'\x60,;<]{6,512})\1`,
      'gi',
    ),
    secretGroup: 2,
    check: keyedValue,
  },
  {
    name: 'keyword-secret',
    severity: 'block',
    keywords: PROSE_KEYWORDS,
    // XML and HTML: `<DB_PASSWORD>…</DB_PASSWORD>`, `<add key="API_TOKEN" value="…"/>`, `<input name="api_secret" value="…">`.
    pattern: new RegExp(
      String.raw`<((?:[A-Za-z_][\w.-]{0,64}?)?(?:password|passwd|passphrase|secret|token|${SECRET_KEY_NAME}|apikey|credentials?))>\s*([^<\s]{6,512})\s*</\1>|\b(?:key|name|id)\s*=\s*["'][^"'\n]{0,64}?(?:password|passwd|passphrase|secret|token|${SECRET_KEY_NAME}|apikey|credentials?)["'](?:\s+[\w-]+\s*=\s*["'][^"'\n]{0,64}["'])?\s+value\s*=\s*["']([^"'\n]{6,512})["']`,
      'gi',
    ),
    secretGroup: [2, 3],
    check: keyedValue,
  },
  {
    name: 'prose-secret',
    severity: 'block',
    keywords: PROSE_KEYWORDS,
    // "the password for the build box is …", "api key for the geocoder: …", "DB_PASSWORD for staging is …".
    pattern: new RegExp(
      String.raw`(?<![A-Za-z0-9])${PROSE_KEY}\b${PROSE_FILLER}${PROSE_MARK}[^\S\n]*(?:<(?:code|kbd|tt|samp)>)?["'\x60“‘]?(${PROSE_VALUE})`,
      'gi',
    ),
    secretGroup: 1,
    check: (secret, match) => proseValue(secret, true, match),
  },
  {
    name: 'prose-secret',
    severity: 'block',
    keywords: PROSE_KEYWORDS,
    // "login with password …", "use token …": the value right after its name, no verb.
    pattern: new RegExp(String.raw`(?<![A-Za-z0-9])${PROSE_KEY}\b[^\S\n]+["'\x60“‘]?(${PROSE_VALUE})`, 'gi'),
    secretGroup: 1,
    check: (secret, match) => proseValue(secret, false, match),
  },
  {
    name: 'prose-secret',
    severity: 'block',
    keywords: PROSE_KEYWORDS,
    // "log in as admin with … as the password", "type … when gpg asks for the passphrase": the value first.
    pattern: new RegExp(
      String.raw`\b(?:with|use|uses|using|enter|type|paste)[^\S\n]+["'\x60“‘]?(${PROSE_VALUE})["'\x60”’]?[^\S\n]+(?:as|when|for|at)\b[^.\n]{0,48}?(?<![A-Za-z0-9])${PROSE_KEY}\b`,
      'gi',
    ),
    secretGroup: 1,
    check: (secret, match) => proseValue(secret, true, match),
  },
  {
    name: 'prose-secret',
    severity: 'block',
    keywords: [
      'パスワード',
      '暗証番号',
      '密码',
      '密碼',
      '口令',
      '비밀번호',
      'пароль',
      'passwort',
      'kennwort',
      'mot de passe',
      'contraseña',
      'senha',
      'wachtwoord',
      'hasło',
      'lösenord',
      'salasana',
      'parola',
      'トークン',
      '토큰',
      '令牌',
    ],
    // The word for "password" (or "token") in other languages, then what it is for ("del servidor de
    // pruebas"), then a particle or verb, then the value.
    pattern: new RegExp(
      String.raw`(?:パスワード|暗証番号|密码|密碼|口令|비밀번호|пароль|passwort|kennwort|mot de passe|contraseña|senha|wachtwoord|hasło|lösenord|salasana|parola|トークン|토큰|令牌)(?:[^\S\n]+(?:del|de|des|du|der|die|das|für|van|voor|dla|för|da|do|della|di|för)\b[^.\n:=]{0,40}?)?(?:[^\S\n]*(?:は|が|：|:|=|是|为|為|는|은|—)|[^\S\n]+(?:ist|est|es|é|is|lautet|jest|är|on|è|:))[^\S\n]*["'\x60“‘「]?(${PROSE_VALUE})`,
      'gi',
    ),
    secretGroup: 1,
    check: (secret, match) => proseValue(secret, true, match),
  },
  {
    name: 'prose-secret',
    severity: 'block',
    keywords: ['login', 'cred', 'user', 'account'],
    // "the kiosk login is admin / …", "credentials: deploy / …": a user and a password with a slash between.
    pattern: new RegExp(
      String.raw`(?<![A-Za-z0-9])(?:login|logon|sign-?in|credentials?|creds|user(?:name)?[ ]?/[ ]?pass(?:word)?|account)\b[^.\n]{0,40}?${PROSE_MARK}[^\S\n]*["'\x60“‘]?[^\s/"'\x60]{1,64}[^\S\n]*/[^\S\n]*(${PROSE_VALUE})`,
      'gi',
    ),
    secretGroup: 1,
    check: (secret, match) => proseValue(secret, true, match),
  },
  {
    name: 'keyword-secret',
    severity: 'block',
    keywords: ['_key'],
    // An environment variable named …_KEY holds a key (`OPENWEATHER_KEY=…`), unless it says it is public or an id.
    pattern:
      /(?<![A-Za-z0-9_])(?!(?:[A-Z0-9]+_)*(?:PUBLIC|PUBLISHABLE|PUB|SITE|PRIMARY|PARTITION|SORT|FOREIGN|CACHE|IDEMPOTENCY|KMS|LOOKUP|MAP|GPG|PGP|SSH|RSA|ROUTING|REGISTRY|INDEX|HASH|ID)_KEY\b)[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_KEY["']?\s*(?::=|=>|[:=])\s*(["'\x60]?)([^\s"'\x60,;<]{8,512})\1/g,
    secretGroup: 2,
    check: keyedValue,
  },
  {
    name: 'keyword-secret',
    severity: 'block',
    keywords: ['value'],
    // A Kubernetes or compose environment entry: `- name: X_API_KEY` then `value: "…"` on the next line (or `{name: …, value: …}`).
    pattern:
      /(?<![\w-])name[ \t]*:[ \t]*["']?([A-Za-z_][\w.-]{0,80})["']?[ \t]*(?:,[ \t]*|\r?\n[ \t]*(?:-[ \t]+)?)value[ \t]*:[ \t]*(["']?)([^\s"'\x60,;<}]{4,512})\2/g,
    secretGroup: 3,
    check: namedValue,
  },
  {
    name: 'keyword-secret',
    severity: 'block',
    keywords: ['|'],
    // A Markdown table row: `| X_TOKEN | \`value\` | …`.
    pattern: /^[ \t]*\|?[ \t]*\x60?([A-Za-z_][\w.-]{0,80})\x60?[ \t]*\|[ \t]*(\x60?)([^\s|\x60]{4,512})\2[ \t]*\|/gm,
    secretGroup: 3,
    check: namedValue,
  },
  {
    name: 'keyword-secret',
    severity: 'block',
    keywords: ['set ', 'setenv'],
    // fish `set -gx NAME value` and csh `setenv NAME value`: a name and its value with no `=`.
    pattern: /\b(?:set(?:[ \t]+-[A-Za-z]+)+|setenv)[ \t]+([A-Za-z_]\w{0,80})[ \t]+(["']?)([^\s"'\x60;]{4,512})\2/g,
    secretGroup: 3,
    check: namedValue,
  },
  {
    name: 'keyword-secret',
    severity: 'block',
    keywords: ['pass', 'secret', 'token', 'key'],
    // Gradle, Groovy and Ruby settings: a name first on its line (or after `{`, `;`), a space, a quoted value (`storePassword "…"`).
    pattern: /(?<=^[ \t]*|[{;][ \t]*)([a-z][A-Za-z0-9]*)[ \t]+(["'])([^\s"'\x60]{4,512})\2/gm,
    secretGroup: 3,
    check: namedValue,
  },
  {
    name: 'keyword-secret',
    severity: 'block',
    keywords: ['_auth'],
    // .npmrc `_auth=`: base64 of `user:password`.
    pattern: /(?<![\w-])(?:\/\/[^\s=]*:)?_auth[ \t]*=[ \t]*["']?([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/g,
    secretGroup: 1,
    check: (secret) => {
      const decoded = Buffer.from(secret, 'base64').toString('latin1');
      const colon = decoded.indexOf(':');
      return /^[\x20-\x7e]+$/.test(decoded) &&
        colon > 0 &&
        colon < decoded.length - 1 &&
        !isPlaceholder(decoded.slice(colon + 1))
        ? 'block'
        : null;
    },
  },
  {
    name: 'prose-secret',
    severity: 'block',
    keywords: ['pass', 'pw'],
    // "log in as root with password qwerty123, …": a password named as such, weak ones too.
    pattern:
      /\b(?:with|using|use|enter|type)[^\S\n]+(?:the[^\S\n]+)?(?:password|passwd|passphrase|pass|pwd|pw)[^\S\n]+["'\x60“‘]?([^\s"'\x60”’<>,;]{4,64}?)["'\x60”’]?(?=[,;)]|\.(?:\s|$)|$|[^\S\n]+(?:and|but|since|then|on|for|to|it)\b)/gi,
    secretGroup: 1,
    check: (secret) => weakProseValue(secret),
  },
  {
    name: 'prose-secret',
    severity: 'block',
    keywords: PROSE_KEYWORDS,
    // The value first: "… is the Linode secret the pipeline needs", "…, our Okta token, until March".
    pattern: new RegExp(
      String.raw`(?<![^\s("'\x60“‘])(?=[^\s,]{8,128}(?:,|[^\S\n]+(?:is|was)[^\S\n]))(${PROSE_VALUE})(?:,[^\S\n]*|[^\S\n]+(?:is|was)[^\S\n]+)(?:our|the|my|your|their)[^\S\n]+(?:[\w.-]+[^\S\n]+){0,3}?(?:${PROSE_KEY})(?=[,.;:)]|$|[^\S\n]+(?:the|that|which|we|for|until|used|in|of|to)\b)`,
      'gi',
    ),
    secretGroup: 1,
    check: (secret, match) => proseValue(secret, true, match),
  },
  {
    name: 'prose-secret',
    severity: 'block',
    keywords: ['log', 'sign'],
    // "log into the router with admin and …": a login with a user and a password.
    pattern: new RegExp(
      String.raw`\b(?:log[^\S\n]?in(?:to)?|logon|sign[^\S\n]?in(?:to)?)\b[^.\n]{0,40}?\bwith[^\S\n]+[^\s,]{1,32}[^\S\n]+and[^\S\n]+["'\x60“‘]?(${PROSE_VALUE})`,
      'gi',
    ),
    secretGroup: 1,
    check: (secret, match) => proseValue(secret, true, match),
  },
  {
    name: 'prose-secret',
    severity: 'block',
    keywords: ['key'],
    // "Current Stripe key → …": a named key and an arrow.
    pattern: new RegExp(
      String.raw`(?<=\b[A-Z][\w.-]*[^\S\n]+)key[^\S\n]*(?:→|->|=>)[^\S\n]*["'\x60“‘]?(${PROSE_VALUE})`,
      'g',
    ),
    secretGroup: 1,
    check: (secret, match) => proseValue(secret, true, match),
  },
  {
    name: 'cli-password',
    severity: 'block',
    keywords: ['mysql', 'mariadb', 'sshpass', 'redis-cli', 'auth ', '-u ', '--user', 'login', 'htpasswd'],
    // A password on a command line: `mysql -u root -p…`, `sshpass -p …`, `redis-cli -a …`, Redis `AUTH …`, `curl -u user:…`.
    pattern:
      /\b(?:(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n|;&]{0,160}?\s-p|sshpass\s+-p\s*|redis-cli\b[^\n|;&]{0,160}?\s-a\s+|(?<=\s|^)AUTH\s+|(?:docker|podman|helm|oras)\s+(?:registry\s+)?login\b[^\n|;&]{0,160}?\s(?:-p|--password)\s+|htpasswd\b[^\n|;&]{0,80}?\s-\w*b\w*(?:\s+-\w+)*\s+\S+\s+\S+\s+|(?:curl|wget|http)\b[^\n|;&]{0,160}?\s(?:-u|--user)\s+["']?[^\s:'"]{1,64}:)["']?([^\s'"]{6,256})/g,
    secretGroup: 1,
    check: (secret) => cliValue(secret),
  },
  {
    name: 'provider-session-id',
    severity: 'block',
    keywords: ['session', 'rollout-', '.claude/projects'],
    // A host's session id in context (seed: a session id lets anyone with the files resume the session).
    pattern:
      /(?:session[_-]?id["']?\s*[:=]\s*["']?|rollout-[0-9T:.-]{10,40}-|\.claude\/projects\/[^\s/]{1,200}\/)([0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})/gi,
    secretGroup: 1,
  },
];

const RULES: Rule[] = [PRIVATE_KEY_RULE, ...FORMAT_RULES.map((rule) => ({ ...rule, format: true })), ...CONTEXT_RULES];

// Runs the entropy rule looks at: base64 and base64url alphabets (hex is a subset).
// `=` only as trailing padding, so `state=…` is the key `state` and a value, not one run.
const RUN = /[A-Za-z0-9+/_-]{20,}={0,2}/g;
const HEX_LIKE = /^[0-9a-fA-F-]+$/;
// Digests and public material printed in base64 after a label that says what they are: subresource
// integrity and lockfiles (`sha512-…`), Go checksums (`h1:…`), data URIs, SSH public keys.
const DIGEST_RUN = /^(?:sha1|sha256|sha384|sha512|md5)-/i;
const NOT_SECRET_PREFIX =
  /(?:sha1|sha256|sha384|sha512|md5)[-:]$|\bh1:$|base64,$|integrity["']?\s*[:=]?\s*["']?$|(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com)\s+$/i;

/** Base64 that decodes to text (prose, JSON, a path) is an encoding of something readable, not a key. */
function decodesToText(run: string): boolean {
  const body = run.replace(/=+$/, '');
  if (body.length % 4 === 1 || /[^A-Za-z0-9+/_-]/.test(body)) return false;
  const bytes = Buffer.from(body.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.length === 0) return false;
  let printable = 0;
  for (const byte of bytes)
    if ((byte >= 0x20 && byte < 0x7f) || byte === 0x0a || byte === 0x09 || byte === 0x0d) printable += 1;
  return printable / bytes.length >= 0.95;
}

/** The share of a run's letters and digits that are in words (lower-case runs, capitalised or not, and acronyms). */
function wordShare(run: string): number {
  const words = run.match(/[A-Z]?[a-z]{2,}|[A-Z]{2,}(?![a-z])/g) ?? [];
  return words.join('').length / Math.max(1, run.replace(/[^A-Za-z0-9]/g, '').length);
}

/**
 * Names and paths (`cacheCreationEphemeral5mInputTokens`, `r0/openai-docs/SKILL`) are almost all
 * words: runs of lower-case letters (capitalised or not) and upper-case acronyms. In a random
 * base64 run of 20+ characters such words cover less than 85% of the letters and digits in more
 * than 99% of runs (simulated), so the threshold costs the entropy rule about 1% of its recall.
 */
function isIdentifier(run: string): boolean {
  const words = run.match(/[A-Z]?[a-z]{2,}|[A-Z]{2,}(?![a-z])/g) ?? [];
  return words.join('').length / Math.max(1, run.replace(/[/_+-]/g, '').length) >= 0.85;
}

// Words near a random run that say it is a credential, and words that say it is public or a digest.
const SECRET_CONTEXT =
  /key|token|secret|pass|pwd|auth|credential|bearer|signature|\bsig\b|cookie|session|vault|private|api|login|\bpsk\b/i;
const PUBLIC_CONTEXT =
  /public|\bhash(?:ed)?\b|\$2[aby]\$|publishable|site[ _-]?key|recaptcha|fingerprint|checksum|digest|integrity|nonce|ENC\[|ANSIBLE_VAULT|encryptedData|BEGIN CERTIFICATE|BEGIN PUBLIC KEY|BEGIN PGP PUBLIC/i;
const CONTEXT_BEFORE = 64;
const CONTEXT_AFTER = 32;

/**
 * A random-looking run is worth a warning only where the text says it is a credential: a word such
 * as key, token, secret or password on its line just before it or just after it. Alone, such runs
 * are as often ids, cache keys, encrypted values and fixture names as they are secrets.
 */
function inSecretContext(text: string, start: number, end: number): boolean {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = text.indexOf('\n', end);
  const before = text.slice(Math.max(lineStart, start - CONTEXT_BEFORE), start);
  const after = text.slice(end, Math.min(lineEnd === -1 ? text.length : lineEnd, end + CONTEXT_AFTER));
  if (!SECRET_CONTEXT.test(before) && !SECRET_CONTEXT.test(after)) return false;
  // A public or encrypted value: also look at the lines just above (a PEM or sops header).
  const above = text.slice(Math.max(0, start - 512), start);
  return !PUBLIC_CONTEXT.test(before) && !PUBLIC_CONTEXT.test(above);
}

function entropyFindings(text: string): { offset: number; length: number }[] {
  const found: { offset: number; length: number }[] = [];
  for (const match of text.matchAll(RUN)) {
    const run = match[0].replace(/^[-_=/+]+|[-_/+]+$/, '');
    const offset = match.index + match[0].indexOf(run);
    if (run.length < ENTROPY_MIN_RUN) continue;
    // Hex (git SHAs, blob OIDs, digests, UUIDs) has 16 symbols: at most 4.0 bits/char, never a finding here.
    if (HEX_LIKE.test(run)) continue;
    // Random keys mix digits with both cases; identifiers, words and paths do not.
    if (!/\d/.test(run) || !/[a-z]/.test(run) || !/[A-Z]/.test(run)) continue;
    if (DIGEST_RUN.test(run) || NOT_SECRET_PREFIX.test(text.slice(Math.max(0, offset - 32), offset))) continue;
    // An alphabet written out (base64 tables, test data) is ordered, never random.
    if (/abcdefgh|ABCDEFGH|01234567/.test(run)) continue;
    if (isIdentifier(run) || shannonEntropy(run) < ENTROPY_MIN_BITS || decodesToText(run)) continue;
    if (PLACEHOLDER_MARK.test(run) || PUBLIC_VALUE.test(run) || wrongShapeToken(run)) continue;
    if (!inSecretContext(text, offset, offset + run.length)) continue;
    found.push({ offset, length: run.length });
  }
  return found;
}

/** The masked form of a secret: its first four characters only when it has at least 16, then its length. */
export function maskSecret(secret: string): string {
  const visible = secret.length >= 16 ? secret.slice(0, 4) : '';
  return `${visible}…[${secret.length} chars]`;
}

interface Raw {
  rule: string;
  severity: SecretSeverity;
  offset: number;
  length: number;
  /** Index in RULES; the entropy rule ranks last. Decides between overlapping findings. */
  rank: number;
  /** 0: the text as written; 1: its normalised view; 2+: decoded segments. Breaks ties of rank. */
  layer: number;
  /** Transforms (bit set) the secret went through. */
  bits: number;
  /** The secret as the rule saw it (for the masked excerpt only). */
  secret: string;
  /** A stretch of a finding that overlapped more specific ones: its excerpt shows only its length. */
  piece?: boolean;
}

/** Drops findings that overlap one of a more specific rule (lower rank); the result is sorted by offset. */
function keepMostSpecific(raw: Raw[]): Raw[] {
  // Of one rule, a blocking finding before a warning, then the widest: the view of a token whose
  // disguise cut it short in the text as written covers all of it.
  const weight = (finding: Raw) => (finding.severity === 'block' ? 0 : 1);
  raw.sort(
    (a, b) =>
      a.rank - b.rank || weight(a) - weight(b) || b.length - a.length || a.layer - b.layer || a.offset - b.offset,
  );
  // Kept findings never overlap, so sorted by offset a new one can only overlap its neighbours.
  const kept: Raw[] = [];
  const insertAt = (offset: number) => {
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (kept[mid]!.offset < offset) low = mid + 1;
      else high = mid;
    }
    return low;
  };
  const overlapped: Raw[] = [];
  for (const finding of raw) {
    const low = insertAt(finding.offset);
    const before = kept[low - 1];
    const after = kept[low];
    if (
      (before && before.offset + before.length > finding.offset) ||
      (after && after.offset < finding.offset + finding.length)
    )
      overlapped.push(finding);
    else kept.splice(low, 0, finding);
  }
  // An overlapped finding may reach past what was kept (a wrapped-token join that swallowed the
  // start of the next token, say): dropping it whole would leave that part of its secret unmasked.
  // Each stretch of it no kept finding covers is kept as a piece of its own, so every character
  // any rule found stays covered and kept findings still never overlap.
  for (const finding of overlapped) {
    const end = finding.offset + finding.length;
    let at = finding.offset;
    let index = insertAt(at);
    const previous = kept[index - 1];
    if (previous) at = Math.max(at, previous.offset + previous.length);
    while (at < end) {
      const next = kept[index];
      const stop = next && next.offset < end ? next.offset : end;
      if (stop > at) {
        kept.splice(index, 0, { ...finding, offset: at, length: stop - at, piece: true });
        index += 1;
      }
      if (!next || next.offset >= end) break;
      at = Math.max(at, next.offset + next.length);
      index += 1;
    }
  }
  return kept;
}

const KEYWORDS = [...new Set(RULES.flatMap((rule) => rule.keywords))].sort((a, b) => b.length - a.length);
// Every keyword at every position, in one pass: ~130 substring searches over 64 KiB cost ~10 ms,
// one alternation in a lookahead well under one. At each position the longest keyword is captured;
// every shorter keyword that occurs there is a prefix of it.
const KEYWORD_SCAN = new RegExp(
  `(?=(${KEYWORDS.map((keyword) => keyword.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')}))`,
  'g',
);

/** The keywords that occur in `text`. */
function keywordsIn(text: string): Set<string> {
  const captured = new Set<string>();
  for (const match of text.toLowerCase().matchAll(KEYWORD_SCAN)) captured.add(match[1]!);
  const present = new Set<string>();
  for (const keyword of KEYWORDS) for (const found of captured) if (found.startsWith(keyword)) present.add(keyword);
  return present;
}

/** The rules over one text, as it is. */
function ruleFindings(text: string, prefilter: boolean, layer: number): Raw[] {
  const present = prefilter ? keywordsIn(text) : undefined;
  const raw: Raw[] = [];
  RULES.forEach((rule, rank) => {
    if (present && rule.keywords.length > 0 && !rule.keywords.some((keyword) => present.has(keyword))) return;
    rule.pattern.lastIndex = 0;
    for (const match of text.matchAll(rule.pattern)) {
      const groups = rule.secretGroup ?? 0;
      const group = typeof groups === 'number' ? groups : (groups.find((index) => match[index] !== undefined) ?? 0);
      const secret = match[group];
      if (secret === undefined || secret === '') continue;
      // A documented format with a stand-in body is documentation (`AKIA…EXAMPLE`, `ghp_xxxx…`).
      const body = rule.bodyAt === undefined ? secret : secret.slice(rule.bodyAt);
      if (rule.format && (PLACEHOLDER_MARK.test(body) || FAKE_BODY.test(body))) continue;
      const severity = rule.check ? rule.check(secret, match) : rule.severity;
      if (severity === null) continue;
      const offset = match.index + (group === 0 ? 0 : match[0].lastIndexOf(secret));
      // A value cut short by an ellipsis (`sk-ant-api03-...`) is an example, not a credential.
      if (!rule.format && /^(?:\.\.\.|…)/.test(text.slice(offset + secret.length, offset + secret.length + 3)))
        continue;
      raw.push({ rule: rule.name, severity, offset, length: secret.length, rank, layer, bits: 0, secret });
    }
  });
  for (const { offset, length } of entropyFindings(text)) {
    const secret = text.slice(offset, offset + length);
    raw.push({
      rule: 'high-entropy-string',
      severity: 'warn',
      offset,
      length,
      rank: RULES.length,
      layer,
      bits: 0,
      secret,
    });
  }
  return raw;
}

/** How far around a changed character of a view the rules look: a token and its key fit in it. */
const VIEW_WINDOW = 512;

/**
 * Findings of the rules in the windows of a view around its changed characters. A finding that
 * crosses no change is one the text as written already gives, so the rest of the view is not
 * linted again: a 40 KiB chunk with a few joined lines costs a few windows, not a second pass.
 */
function windowFindings(view: NormalisedText, prefilter: boolean, layer: number): Raw[] {
  const windows: { start: number; end: number }[] = [];
  for (const { start, end } of view.map.changedSpans()) {
    const from = Math.max(0, start - VIEW_WINDOW);
    const to = Math.min(view.text.length, end + VIEW_WINDOW);
    const last = windows.at(-1);
    if (last && from <= last.end) last.end = Math.max(last.end, to);
    else windows.push({ start: from, end: to });
  }
  const found: Raw[] = [];
  for (const window of windows)
    for (const finding of ruleFindings(view.text.slice(window.start, window.end), prefilter, layer))
      found.push({ ...finding, offset: finding.offset + window.start });
  return found;
}

/**
 * Whether the text as written has a finding of `rule` that starts `span` and ends where a plain line
 * break begins an unindented line: a token complete at the end of its line, not one wrapped.
 */
function completeBeforeBreak(text: string, originals: Raw[], rule: string, span: SourceSpan): boolean {
  return originals.some((original) => {
    if (original.rule !== rule || original.offset !== span.start) return false;
    const end = original.offset + original.length;
    // A plain break before an unindented line; a trailing backslash or an indented next line says the value goes on.
    return end < span.end && text[end - 1] !== '\\' && /^\r?\n(?![ \t])/.test(text.slice(end, end + 3));
  });
}

/**
 * A decoded segment that is one value with no spaces, of three character classes and random
 * enough (`Harbor#5082Falcon`), and none of a path, URL, address, version, date or placeholder.
 */
function isBareSecret(decoded: string): boolean {
  const value = decoded.replace(/\r?\n$/, '');
  if (/\s/.test(value) || value.length > 128 || /^\d{4}-\d\d-\d\d/.test(value)) return false;
  // An id (a UUID, a hex digest) or settings (`env=prod;region=eu-west-1`) encoded is not a secret.
  if (HEX_LIKE.test(value) || /[=;&,].*[=;&,]/.test(value)) return false;
  // Both cases and a digit; then a symbol a name would not have, or pieces that are not words
  // (`AppleWebKit/537.36`, `x86_64-linux-gnu` and `my-service-account-01` are names).
  if (!/[a-z]/.test(value) || !/[A-Z]/.test(value) || !/\d/.test(value)) return false;
  if (!/[!#$%&*+=?@^~]/.test(value) && wordShare(value) >= 0.5) return false;
  return proseValue(value, false) === 'block' && shannonEntropy(value) >= 3;
}

/** Decoded segments inside decoded segments are followed this deep (base64 of a line holding hex, say). */
const DECODE_DEPTH = 2;

/**
 * Findings in `text` and in what its disguises hide, each at its span of `text`: the text as
 * written, its normalised view (findings that crossed a transform), and the base64 and hex
 * segments of the view that decode to text (linted the same way, `depth` levels down).
 */
function layeredFindings(text: string, prefilter: boolean, depth: number): Raw[] {
  const found = ruleFindings(text, prefilter, depth * 3);
  const originals = [...found];
  // Two views: one with the characters cleaned, one that also joins wrapped tokens. A join can glue
  // a word to the token that follows on the next line, so the view without joins is linted too.
  const joined = normaliseText(text);
  // Without a join the two views are one: normalise once.
  const clean = joined.joined ? normaliseText(text, { joinWrapped: false }) : joined;
  const views = [clean, joined].filter((view, index) => view.changed && (index === 0 || view.text !== clean.text));
  views.forEach((view, index) => {
    for (const finding of windowFindings(view, prefilter, depth * 3 + 1 + index)) {
      const span = view.map.toSource(finding.offset, finding.offset + finding.length);
      // Untouched by any transform: the same finding the text as written gives (or its context changed by a join elsewhere).
      if (span.bits === 0) continue;
      // A token complete at the end of its line, with a word on the next: the join glued the word on.
      if (completeBeforeBreak(text, originals, finding.rule, span)) continue;
      found.push({ ...finding, offset: span.start, length: span.end - span.start, bits: span.bits });
    }
  });
  if (depth < DECODE_DEPTH) {
    // Encoded segments of the cleaned view, and of the joined view those a join runs through (base64
    // wrapped at 76 columns); a join elsewhere could glue a word to a segment and misalign it.
    const sources: [NormalisedText, boolean][] = [[clean, false]];
    if (joined.changed && joined.text !== clean.text) sources.push([joined, true]);
    for (const [view, onlyWrapped] of sources) {
      const toText = (start: number, end: number): SourceSpan =>
        view.changed ? view.map.toSource(start, end) : { start, end, bits: 0 };
      for (const segment of decodedSegments(view.text)) {
        if (onlyWrapped && (toText(segment.start, segment.end).bits & transformBit('wrapped')) === 0) continue;
        const bit = transformBit(segment.transform);
        const inners = layeredFindings(segment.text, prefilter, depth + 1);
        // A segment that decodes to one bare random-looking value (a Kubernetes Secret's value, a
        // password stored in base64) is that value encoded: the segment is the secret.
        if (!inners.some((inner) => inner.severity === 'block') && isBareSecret(segment.text)) {
          const span = toText(segment.start, segment.end);
          found.push({
            rule: 'encoded-secret',
            severity: 'block',
            offset: span.start,
            length: span.end - span.start,
            rank: RULES.length,
            layer: depth * 3 + 3,
            bits: span.bits | bit,
            secret: segment.text.trim(),
          });
        }
        for (const inner of inners) {
          const encoded = segment.encodedSpan(inner.offset, inner.offset + inner.length);
          const span = toText(encoded.start, encoded.end);
          found.push({
            ...inner,
            offset: span.start,
            length: span.end - span.start,
            bits: inner.bits | span.bits | bit,
            layer: depth * 3 + 3,
          });
        }
      }
    }
  }
  return found;
}

/**
 * Every secret finding in `text`, in order of position; overlapping findings keep the most specific
 * rule. Disguised secrets are found through the normalised view and decoded segments, and reported
 * at the original span with `transform` set. `prefilter: false` runs every rule's regex regardless
 * of keywords (the benchmark's baseline; the findings are the same, since every pattern contains
 * one of its keywords).
 */
export function lintText(text: string, options: { prefilter?: boolean } = {}): SecretFinding[] {
  const prefilter = options.prefilter ?? true;
  const starts = lineStarts(text);
  return keepMostSpecific(layeredFindings(text, prefilter, 0)).map(
    ({ rule, severity, offset, length, bits, secret, piece }) => {
      const finding: SecretFinding = {
        rule,
        severity,
        ...position(starts, offset),
        offset,
        length,
        // A piece is masked as it stands in the text (as written, or by its length when disguised).
        excerpt: !piece
          ? maskSecret(secret)
          : bits === 0
            ? maskSecret(text.slice(offset, offset + length))
            : `…[${length} chars]`,
      };
      const transform = transformNames(bits);
      if (transform !== undefined) finding.transform = transform;
      return finding;
    },
  );
}

/** True when any finding blocks (the candidate is quarantined, the promotion refused). */
export function hasBlockingFinding(findings: readonly SecretFinding[]): boolean {
  return findings.some((finding) => finding.severity === 'block');
}

/**
 * One line for a person: `path:line:column severity rule excerpt` (the path left out when there is
 * none), then `(through zero-width+wrapped)` when the secret was disguised.
 */
export function formatFinding(finding: SecretFinding, path?: string): string {
  const where = `${path === undefined ? '' : `${path}:`}${finding.line}:${finding.column}`;
  const through = finding.transform === undefined ? '' : ` (through ${finding.transform})`;
  return `${where} ${finding.severity} ${finding.rule} ${finding.excerpt}${through}`;
}

/** The rule names, for documentation and for tests that every rule has a corpus entry. */
export const SECRET_RULE_NAMES: readonly string[] = [
  ...new Set([...RULES.map((rule) => rule.name), 'encoded-secret', 'high-entropy-string']),
];
