// Secret lint: finds credentials in text before it can become a memory. Each rule is written
// from the token format its provider documents (prefixes, lengths, alphabets), plus keyword
// context (`password = …`), URLs with a password, private key blocks, JWTs and a Shannon
// entropy rule for long random-looking runs. A finding names its rule and position and carries
// a masked excerpt — never the secret itself.
//
// Speed: every rule has keywords, and a rule's regex runs only when one of its keywords occurs
// in the lower-cased text. Without that prefilter every regex walks every line; with it a 64 KiB
// line with no keyword costs one lower-casing, a few substring searches and the entropy scan.

export type SecretSeverity = 'block' | 'warn';

export interface SecretFinding {
  rule: string;
  severity: SecretSeverity;
  /** 1-based line of the secret's first character. */
  line: number;
  /** 1-based column (UTF-16 code units, as editors count them) of the secret's first character. */
  column: number;
  /** 0-based offset of the secret in the text (UTF-16 code units). */
  offset: number;
  length: number;
  /** The masked secret: at most its first four characters when it is long enough to spare them, then its length. */
  excerpt: string;
}

interface Rule {
  name: string;
  severity: SecretSeverity;
  /** Lower-case substrings; the regex runs only when the text contains one. */
  keywords: string[];
  /** Global regex; the secret is group `secretGroup` (0 = the whole match). */
  pattern: RegExp;
  secretGroup?: number;
  /** A second look at a match: return null to drop it, or the severity it deserves. */
  check?: (secret: string, match: RegExpExecArray) => SecretSeverity | null;
}

/** Shannon entropy threshold (bits per character) of the entropy rule. */
export const ENTROPY_MIN_BITS = 4.0;
/** Shortest run the entropy rule looks at: below this, random-looking identifiers are too common. */
export const ENTROPY_MIN_RUN = 20;

// Token boundaries: a token that is part of a longer word or run is not that token.
const B = String.raw`(?<![A-Za-z0-9_])`;
const E = String.raw`(?![A-Za-z0-9_])`;

const PLACEHOLDER =
  /^(?:\$\{?[A-Za-z_][\w.]*\}?|%\(?\w+\)?s?|\{\{.*\}\}|<[^>]*>|\[[^\]]*\]|(?:process\.env|os\.environ|env|ENV|System\.getenv|getenv)\b.*|[x*•.#_-]+|(?:true|false|null|none|nil|undefined|required|optional|string|redacted|hidden|secret|password|changeme|example|placeholder|dummy|fake|test|todo|your[\w-]*|my[\w-]*|\.\.\.)\b.*)$/i;

/** Shannon entropy of `text` in bits per character. A hex string can never exceed log2(16) = 4.0. */
export function shannonEntropy(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  const total = [...text].length;
  for (const count of counts.values()) {
    const p = count / total;
    bits -= p * Math.log2(p);
  }
  return bits;
}

// `token = randomBytes(32)`, `token: symbol)`, `secret = this.config.secret`: code, not a value.
const CODE_VALUE = /[()[\]{}<>]|^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$|^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
const LOCAL_HOST = /^(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])$/i;

const classesOf = (text: string) => [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((c) => c.test(text)).length;

/** Keyword-context values: a placeholder or an environment reference is not a secret; a short or plain one is worth a warning. */
function contextValue(value: string): SecretSeverity | null {
  const bare = value.replace(/^["'`]|["'`,;]+$/g, '');
  if (bare.length < 8 || PLACEHOLDER.test(bare) || /^\d+$/.test(bare) || CODE_VALUE.test(bare)) return null;
  return bare.length >= 12 && classesOf(bare) >= 2
    ? 'block'
    : bare.length >= 8 && classesOf(bare) >= 3
      ? 'block'
      : 'warn';
}

const RULES: Rule[] = [
  {
    name: 'private-key-block',
    severity: 'block',
    keywords: ['private key'],
    // PEM (PKCS#1, PKCS#8, SEC1, OpenSSH, encrypted) and PGP armour; the whole block up to its END line when present.
    // The body never contains five dashes, so a scan for END stops at the next armour line (linear time).
    pattern:
      /-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----(?:(?:[^-]|-(?!----)){0,16384}-----END (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----)?/g,
  },
  {
    name: 'aws-access-key-id',
    severity: 'block',
    keywords: ['akia', 'asia', 'abia', 'acca'],
    // AKIA: long-term user keys; ASIA: temporary (STS) keys; ABIA/ACCA: other documented IAM prefixes.
    pattern: new RegExp(String.raw`${B}(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}${E}`, 'g'),
  },
  {
    name: 'aws-secret-access-key',
    severity: 'block',
    keywords: ['aws_secret', 'secret_access_key', 'secretaccesskey', 'aws secret'],
    pattern:
      /(?:aws_?secret_?access_?key|secret_?access_?key|aws secret access key)["'\s]*[:=]\s*["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/gi,
    secretGroup: 1,
  },
  {
    name: 'gcp-service-account-key',
    severity: 'block',
    keywords: ['private_key_id'],
    pattern: /"private_key_id"\s*:\s*"([0-9a-f]{40})"/g,
    secretGroup: 1,
  },
  {
    name: 'gcp-api-key',
    severity: 'block',
    keywords: ['aiza'],
    pattern: new RegExp(String.raw`${B}AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])`, 'g'),
  },
  {
    name: 'github-fine-grained-token',
    severity: 'block',
    keywords: ['github_pat_'],
    pattern: new RegExp(
      String.raw`${B}github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}${E}|${B}github_pat_[A-Za-z0-9_]{50,255}${E}`,
      'g',
    ),
  },
  {
    name: 'github-token',
    severity: 'block',
    keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    // Classic personal (ghp_), OAuth (gho_), user-to-server (ghu_), server-to-server (ghs_), refresh (ghr_): 36 base62.
    pattern: new RegExp(String.raw`${B}gh[pousr]_[A-Za-z0-9]{36,251}${E}`, 'g'),
  },
  {
    name: 'gitlab-token',
    severity: 'block',
    keywords: ['glpat-', 'gldt-', 'glrt-', 'glptt-'],
    pattern: new RegExp(String.raw`${B}(?:glpat|gldt|glrt|glptt)-[A-Za-z0-9_-]{20,}`, 'g'),
  },
  {
    name: 'anthropic-api-key',
    severity: 'block',
    keywords: ['sk-ant-'],
    pattern: new RegExp(String.raw`${B}sk-ant-(?:api|admin|sid)\d{2}-[A-Za-z0-9_-]{32,}`, 'g'),
  },
  {
    name: 'openai-api-key',
    severity: 'block',
    keywords: ['sk-'],
    // Project, service-account and admin keys (sk-proj-, sk-svcacct-, sk-admin-), and legacy user keys
    // whose body carries the marker T3BlbkFJ ("OpenAI" in base64), or a long plain sk- key.
    pattern: new RegExp(
      String.raw`${B}sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}|${B}sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}${E}|${B}sk-(?!ant-)[A-Za-z0-9]{40,64}${E}`,
      'g',
    ),
    check: (secret) => (secret.startsWith('sk-') && !/\d/.test(secret) ? null : 'block'),
  },
  {
    name: 'slack-token',
    severity: 'block',
    keywords: ['xox'],
    // Bot (xoxb), user (xoxp), app-level (xapp handled below), legacy workspace (xoxa/xoxo/xoxr/xoxs) tokens.
    pattern: new RegExp(String.raw`${B}xox[abposre]-[0-9A-Za-z-]{10,250}`, 'g'),
  },
  {
    name: 'slack-app-token',
    severity: 'block',
    keywords: ['xapp-'],
    pattern: new RegExp(String.raw`${B}xapp-\d-[A-Z0-9]+-\d+-[a-f0-9]{32,}`, 'g'),
  },
  {
    name: 'slack-webhook',
    severity: 'block',
    keywords: ['hooks.slack.com'],
    pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{20,}/g,
  },
  {
    name: 'stripe-live-key',
    severity: 'block',
    keywords: ['sk_live_', 'rk_live_'],
    pattern: new RegExp(String.raw`${B}(?:sk|rk)_live_[0-9A-Za-z]{20,247}${E}`, 'g'),
  },
  {
    name: 'stripe-test-key',
    severity: 'warn',
    keywords: ['sk_test_', 'rk_test_'],
    pattern: new RegExp(String.raw`${B}(?:sk|rk)_test_[0-9A-Za-z]{20,247}${E}`, 'g'),
  },
  {
    name: 'npm-token',
    severity: 'block',
    keywords: ['npm_'],
    pattern: new RegExp(String.raw`${B}npm_[A-Za-z0-9]{36}${E}`, 'g'),
    check: (secret) => (/\d/.test(secret) && /[A-Z]/.test(secret) ? 'block' : null),
  },
  {
    name: 'sendgrid-api-key',
    severity: 'block',
    keywords: ['sg.'],
    pattern: new RegExp(String.raw`${B}SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])`, 'g'),
  },
  {
    name: 'huggingface-token',
    severity: 'block',
    keywords: ['hf_'],
    pattern: new RegExp(String.raw`${B}hf_[A-Za-z]{34,40}${E}`, 'g'),
  },
  {
    name: 'pypi-token',
    severity: 'block',
    keywords: ['pypi-'],
    // "pypi-" then a macaroon whose base64 always begins with the encoded "pypi.org" location.
    pattern: new RegExp(String.raw`${B}pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}`, 'g'),
  },
  {
    name: 'google-oauth-client-secret',
    severity: 'block',
    keywords: ['gocspx-'],
    pattern: new RegExp(String.raw`${B}GOCSPX-[A-Za-z0-9_-]{28}(?![A-Za-z0-9_-])`, 'g'),
  },
  {
    name: 'digitalocean-token',
    severity: 'block',
    keywords: ['dop_v1_', 'doo_v1_', 'dor_v1_'],
    pattern: new RegExp(String.raw`${B}do[opr]_v1_[a-f0-9]{64}${E}`, 'g'),
  },
  {
    name: 'shopify-token',
    severity: 'block',
    keywords: ['shpat_', 'shpca_', 'shppa_', 'shpss_'],
    pattern: new RegExp(String.raw`${B}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}${E}`, 'g'),
  },
  {
    name: 'docker-hub-token',
    severity: 'block',
    keywords: ['dckr_pat_'],
    pattern: new RegExp(String.raw`${B}dckr_pat_[A-Za-z0-9_-]{27,}`, 'g'),
  },
  {
    name: 'azure-storage-key',
    severity: 'block',
    keywords: ['accountkey='],
    // A storage connection string's AccountKey: 64 random bytes in base64 (88 characters, "==" padded).
    pattern: /AccountKey=([A-Za-z0-9+/]{86}==)/g,
    secretGroup: 1,
  },
  {
    name: 'jwt',
    severity: 'block',
    keywords: ['eyj'],
    // header.payload.signature, each base64url; the header and payload are JSON objects, so both start with eyJ.
    pattern: new RegExp(String.raw`${B}eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}`, 'g'),
  },
  {
    name: 'url-credentials',
    severity: 'block',
    keywords: ['://'],
    // scheme://user:password@host — the password is the secret.
    pattern: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:@/"'<>]{1,128}:([^\s@/"'<>]{1,256})@([A-Za-z0-9.-]+|\[[0-9a-f:]+\])/gi,
    secretGroup: 1,
    // A placeholder is documentation; a password for a database on this machine is still worth a warning.
    check: (secret, match) => (PLACEHOLDER.test(secret) ? null : LOCAL_HOST.test(match[2] ?? '') ? 'warn' : 'block'),
  },
  {
    name: 'authorization-header',
    severity: 'block',
    keywords: ['bearer', 'basic '],
    pattern: /\b(?:authorization\s*[:=]\s*["']?)?(?:bearer|basic)\s+([A-Za-z0-9._~+/-]{16,}=*)/gi,
    secretGroup: 1,
    check: (secret) => (classesOf(secret) >= 2 && !PLACEHOLDER.test(secret) ? 'block' : null),
  },
  {
    name: 'keyword-secret',
    severity: 'block',
    keywords: [
      'pass',
      'pwd',
      'secret',
      'token',
      'api_key',
      'apikey',
      'api-key',
      'api key',
      'private_key',
      'credential',
      'auth',
    ],
    // `password = …`, `"api_key": "…"`, `export GITHUB_TOKEN=…`, `client_secret: …`; the value is the secret.
    pattern:
      /(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|private[_-]?key|credentials?|auth[_-]?key)(?:[_-]?(?:key|id|value|hash|b64|base64|enc|encoded|plain|raw|str|string))?["']?\s*(?::=|=>|[:=])\s*(["'`]?)([^\s"'`,;]{6,512})\1/gi,
    secretGroup: 2,
    check: (secret) => contextValue(secret),
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
    found.push({ offset, length: run.length });
  }
  return found;
}

/** The masked form of a secret: its first four characters only when it has at least 16, then its length. */
export function maskSecret(secret: string): string {
  const visible = secret.length >= 16 ? secret.slice(0, 4) : '';
  return `${visible}…[${secret.length} chars]`;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function position(starts: number[], offset: number): { line: number; column: number } {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, column: offset - starts[low]! + 1 };
}

interface Raw {
  rule: string;
  severity: SecretSeverity;
  offset: number;
  length: number;
  /** Index in RULES; the entropy rule ranks last. Decides between overlapping findings. */
  rank: number;
}

/** Drops findings that overlap one of a more specific rule (lower rank); the result is sorted by offset. */
function keepMostSpecific(raw: Raw[]): Raw[] {
  raw.sort((a, b) => a.rank - b.rank || a.offset - b.offset);
  // Kept findings never overlap, so sorted by offset a new one can only overlap its two neighbours.
  const kept: Raw[] = [];
  for (const finding of raw) {
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (kept[mid]!.offset < finding.offset) low = mid + 1;
      else high = mid;
    }
    const before = kept[low - 1];
    const after = kept[low];
    if (before && before.offset + before.length > finding.offset) continue;
    if (after && after.offset < finding.offset + finding.length) continue;
    kept.splice(low, 0, finding);
  }
  return kept;
}

/**
 * Every secret finding in `text`, in order of position; overlapping findings keep the most specific
 * rule. `prefilter: false` runs every rule's regex regardless of keywords (the benchmark's baseline;
 * the findings are the same, since every pattern contains one of its keywords).
 */
export function lintText(text: string, options: { prefilter?: boolean } = {}): SecretFinding[] {
  const prefilter = options.prefilter ?? true;
  const lower = prefilter ? text.toLowerCase() : '';
  const raw: Raw[] = [];
  RULES.forEach((rule, rank) => {
    if (prefilter && !rule.keywords.some((keyword) => lower.includes(keyword))) return;
    rule.pattern.lastIndex = 0;
    for (const match of text.matchAll(rule.pattern)) {
      const group = rule.secretGroup ?? 0;
      const secret = match[group];
      if (secret === undefined || secret === '') continue;
      const severity = rule.check ? rule.check(secret, match) : rule.severity;
      if (severity === null) continue;
      const offset = match.index + (group === 0 ? 0 : match[0].lastIndexOf(secret));
      raw.push({ rule: rule.name, severity, offset, length: secret.length, rank });
    }
  });
  for (const { offset, length } of entropyFindings(text)) {
    raw.push({ rule: 'high-entropy-string', severity: 'warn', offset, length, rank: RULES.length });
  }
  const starts = lineStarts(text);
  return keepMostSpecific(raw).map(({ rule, severity, offset, length }) => ({
    rule,
    severity,
    ...position(starts, offset),
    offset,
    length,
    excerpt: maskSecret(text.slice(offset, offset + length)),
  }));
}

/** True when any finding blocks (the candidate is quarantined, the promotion refused). */
export function hasBlockingFinding(findings: readonly SecretFinding[]): boolean {
  return findings.some((finding) => finding.severity === 'block');
}

/** One line for a person: `path:line:column severity rule excerpt` (the path left out when there is none). */
export function formatFinding(finding: SecretFinding, path?: string): string {
  const where = `${path === undefined ? '' : `${path}:`}${finding.line}:${finding.column}`;
  return `${where} ${finding.severity} ${finding.rule} ${finding.excerpt}`;
}

/** The rule names, for documentation and for tests that every rule has a corpus entry. */
export const SECRET_RULE_NAMES: readonly string[] = [...RULES.map((rule) => rule.name), 'high-entropy-string'];
