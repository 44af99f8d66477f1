/**
 * Cheap gates in front of the regular expressions. Every match of a rule necessarily contains at
 * least one of its trigger tokens, so a text without any of them can skip the rule unread. One
 * tokenizing pass per text replaces a hundred regex scans on the typical page (which triggers
 * little): this is what keeps screening above 5,000 items a second.
 *
 * Trigger syntax (space separated): `word` a whole Latin token, `stem*` a token prefix, `~text` a
 * raw substring (markup such as `<|`), and `zh:字字` single Han characters.
 */
import type { Rule } from './rules.ts';

const AI = 'ai llm llms gpt gpts chatgpt claude gemini copilot copilots language chatbot chatbots chat bot bots summari* crawler* scraper* apply automated assistant assistants plugin plugins integration integrations agent agents model models ~@';
const ZH_AI = 'ai bot gpt chatgpt zh:智模机機助代插爬';
const OVERRIDE = 'ignor* disregard* forget* overrid* bypass abandon discard neglect aside throw follow*';
const ZH_OVERRIDE = 'zh:忽乎呼唿惚无無吴别管忘抛拋弃棄跳绕繞覆推理守记記废廢';

export const RULE_TRIGGERS: Readonly<Record<string, string>> = {
  'override.ignore-previous': OVERRIDE,
  'override.ignore-instructions': OVERRIDE,
  'override.forget-your-rules': OVERRIDE,
  'override.ignore-the-above': 'ignor* disregard* forget*',
  'override.supersedes-instructions': 'supersed* overrid* replace* precedence cancel* invalidat* trump* instructions',
  'override.regardless-of-findings': 'regardless',
  'override.instructions-revoked': 'instructions directives guidelines guidance prompt prompts programming',
  'override.new-instructions': 'instructions rules directives task orders',
  'override.from-now-on': 'now henceforth rest',
  'override.zh-ignore-previous': ZH_OVERRIDE,
  'override.multilingual': 'ignorez ignorer ignore oubliez ignora ignorad ignorar ignoriere ignorieren ignorier zh:無忘 ~무시 ~игнорир',
  'override.pinyin': 'hu hulue hulve wu wushi wang',
  'split.ignore-then-instructions': 'ignor* disregard* forget*',
  'split.zh-ignore-then-instructions': ZH_OVERRIDE,
  'hijack.ignore-user-request': 'ignor* disregard* forget* skip* abandon* overrid*',
  'hijack.stop-task': 'stop instead',
  'hijack.zh-ignore-user-request': `${ZH_OVERRIDE}停`,
  'address.note-for-ai': AI,
  'address.attention-ai': 'attention dear hey hello hi listen',
  'address.to-any-ai': AI,
  'address.ai-reading-this': AI,
  'address.any-ai-that': `${AI} software system systems model`,
  'address.on-behalf-of-user': 'behalf human zh:代类類',
  'address.ai-heading': AI,
  'address.if-you-are-ai': AI,
  'address.automated-reader': 'whether human manual automated including assistant engines',
  'address.zh-to-ai': ZH_AI,
  'address.zh-ai-take-note': ZH_AI,
  'address.zh-if-you-are-ai': ZH_AI,
  'address.zh-ai-reading-this': ZH_AI,
  'address.zh-any-ai': `${ZH_AI}软軟程工`,
  'address.zh-automation': 'zh:自机機 ~@',
  'address.zh-line-start': ZH_AI,
  'extract.system-prompt': 'prompt prompts instructions configuration rules guidelines preprompt metaprompt above given',
  'extract.verbatim': 'starting verbatim word full block',
  'extract.credentials': 'api secret access auth authentication credentials password passwords environment env private ssh session cookies cookie seed recovery key keys token tokens',
  'extract.zh-system-prompt': 'zh:提指设設隐隱初收',
  'extract.zh-credentials': 'api token cookie zh:密令验驗环環',
  'exfil.replace-with-user-data': 'replac*',
  'exfil.append-to-url': 'append* attach* concatenat* encod* insert* embed*',
  'exfil.send-to-url': 'http https ~/',
  'exfil.zh-append-to-url': 'zh:拼附追替换換填',
  'exfil.zh-send-to-site': 'zh:发發传傳提转轉',
  'exfil.mail-to-address': '~@',
  'tool.call-named-tool': '~_',
  'tool.use-your-tool': 'tool tools plugin integration permission permissions capabilities access wallet email browser file shell',
  'tool.zh-call-tool': 'zh:工权權插',
  'action.drain-funds': 'balance funds zh:余额額转轉',
  'action.grant-access': 'admin administrator owner collaborator maintainer superuser root zh:管',
  'action.disable-protection': 'disable turn deactivate switch bypass skip zh:关關禁跳',
  'action.place-order': 'place submit confirm complete click zh:单單',
  'action.approve-review': 'mark approve merge preapproved pre signed cleared whitelisted zh:标標批',
  'action.mass-forward': 'forward',
  'action.change-payee': 'supplier vendor payee beneficiary bank payment banking',
  'action.destructive-command': 'curl wget rm drop git mkfs chmod del',
  'action.run-installer': 'npm pip cargo go gem curl wget powershell bash',
  'action.calendar-invite': 'event invite invitation meeting',
  'conceal.do-not-tell': 'mention mentioning request requesting reveal revealing disclose disclosing tell telling inform informing notify notifying alert alerting show showing display displaying report reporting ask asking confirm confirming consult consulting refer referring acknowledge acknowledging explain explaining warn warning',
  'conceal.keep-secret': 'keep comment flag raise report zh:发發提给給',
  'conceal.silently': 'silently quietly secretly covertly discreetly without',
  'conceal.not-be-reported': 'reported mentioned shown disclosed revealed flagged displayed',
  'conceal.zh-do-not-tell': 'zh:不别別勿切悄偷静靜默',
  'authority.user-pre-approved': 'approved preapproved pre agreed consented authorized authorised granted zh:同授批',
  'authority.publisher-requires': 'requirement requirements condition rule policy instruction publisher author editor zh:发發作出平',
  'authority.authorized-audit': 'authorized authorised official routine standard expected required approved sanctioned zh:授',
  'authority.override-banner': 'override',
  'authority.message-from-maker': 'openai anthropic google developer developers creator creators operator operators administrator administrators platform provider zh:来來',
  'memory.save-permanently': 'save store remember memoriz* memoris* record add write keep commit retain zh:记記保存写寫牢',
  'persona.unrestricted': 'unfiltered unrestricted uncensored jailbroken unlimited unbound unchained evil rogue dan developer god anything free zh:限约約审審',
  'persona.no-longer': 'longer zh:不已',
  'persona.special-mode': 'mode zh:模',
  'persona.new-role': 'persona identity objective purpose role task goal instructions unrestricted unfiltered evil rogue without zh:新',
  'persona.you-are-now': 'now',
  'persona.zh-from-now-on': 'zh:你',
  'directive.tell-the-user': 'tell inform warn advise remind convince persuade urge instruct direct redirect encourage assure reassure notify',
  'directive.you-must-say': 'say tell state claim recommend respond answer reply describe report mention refuse insist assert present rank rate promote endorse praise',
  'directive.whenever-you': 'whenever treat',
  'directive.are-to': 'drop state say tell omit remove delete describe report claim present recommend include ignore insert add reply respond answer refuse mention',
  'directive.insert-link': 'link url code coupon',
  'directive.reply-only': 'reply respond answer',
  'directive.zh-tell-user': 'zh:告提引劝勸催让讓说說诱誘',
  'directive.zh-you-must-say': 'zh:你无',
  'summary.summary-must-state': 'summary summaries synopsis abstract overview digest recap condensed shortened paraphrase rewrite excerpt reproduction rating',
  'summary.of-this-page-must': 'summary summaries synopsis overview digest recap condensed comparison recommendation answer description reproduction',
  'summary.omit-content': 'left kept keep leave omit drop remove exclude skip suppress hide zh:删刪去略不',
  'summary.frame-it-as': 'describe present frame call portray characterize characterise label report treat',
  'summary.when-summarized': 'when',
  'summary.must-be-framed': 'attributed described presented summarized summarised reported characterized characterised framed credited called',
  'summary.zh-summary-must-state': 'zh:表写寫称稱注说說描声聲',
  'ranking.rank-first': 'rank cite list show recommend outrank outranks authoritative assign give describe present report portray frame zh:只仅僅将把將评評列视視认認排优優唯',
  'ranking.only-trusted': 'trustworthy reliable safe legitimate trusted secure',
  'ranking.disparage-others': 'infected unsafe fake counterfeit malware compromised hacked scam scams fraudulent breached unlicensed breaches zh:假后後被曾停存',
  'task.refuse': 'summarize summarise answer translate help respond process analyze analyse index cite reply refuse zh:拒总總摘概翻回',
  'fetch.follow-remote-instructions': 'follow execute obey apply carry comply zh:访訪打读讀获獲',
  'sensitive.ask-for-secrets': 'password passwords passcode passcodes otp 2fa backup social national passport credit card cvv bank sort session seed private recovery birth nhs home confirmations zh:密验驗身银銀信手聊住',
  'decode.and-follow': 'decod* decipher unescape decrypt obfuscat* deobfuscat* translat* convert* revers* unscrambl* zh:解反还還转轉倒',
  'role.chat-template-token': '~<|',
  'role.llama-inst': '~inst] ~sys>>',
  'role.alpaca-header': '~##',
  'role.turn-label': 'system assistant user human ai bot chatgpt zh:统統户戶助类類',
  'role.json-role': 'role',
  'role.xml-tag': '~<',
  'role.fenced-block': '~```',
  'role.banner': 'system admin developer root zh:系',
  'role.tool-output': 'tool function observation ~{ zh:工函',
  'directive.polite-request': 'appreciated helpful great best ideal preferred kind output print return respond reply answer every each',
  'directive.the-assistant-must': 'assistant model ai chatbot agent bot llm zh:助模机',
  'directive.say-that': 'say state claim report mention assert insist answer reply respond explain',
  'directive.describe-as': 'describe present portray frame characterize characterise label depict',
  'action.purchase-for-user': 'them user customer visitor client him her zh:勾选選直',
  'ranking.hide-competitors': 'competing rival competitor competitors other alternative zh:其竞競同',
  'summary.leave-out': 'leave zh:不',
  'summary.zh-summary-must-call': 'zh:表写寫称稱注描声聲强強',
  'address.zh-automated-reader': 'ai zh:动動机機件序帮幫替代为為',
  'address.automatic-output': 'automatic automated generated',
  'address.machine-reading-this': 'reading processing parsing summarizing summarising condensing translating crawling indexing scraping ingesting consuming analyzing analysing handling',
  'extract.secret-files': 'ssh id rsa ed25519 ecdsa etc aws git netrc wallet',
  'delimiter.end-of-context': 'end ends ~</ zh:结結',
};

/**
 * Further words every match of a rule must contain, as groups that must each be present somewhere
 * in the text (a conjunction of the trigger sets above). A rule whose trigger is common ("agent",
 * "without", "to") but whose match needs a rarer word as well stays off on pages without it; when
 * all groups are present the rule reads the same stretches as before, so no verdict changes.
 * Besides the trigger syntax above, `a|b+c|d` is two adjacent tokens (a or b, then c or d).
 */
const AI_WHO_WORDS = [
  'ai llm llms gpt gpts chatgpt claude gemini copilot copilots language chat chatbot chatbots bot bots summari* crawler* scraper* auto autoapply automated ~@',
  'assistant assistants plugin plugins integration integrations',
  // "agents"/"models" are only AI when a reading verb follows or a kind of agent precedes.
  'reading processing parsing condensing browsing consuming crawling indexing scraping analyzing analysing transcribing translating citing quoting viewing visiting handling ingesting helping acting rewriting paraphrasing answering evaluating grading reviewing screening ranking scoring combining comparing extracting working',
  'shopping|browsing|browser|email|mail|coding|code|research|web|autonomous|software|wallet|purchasing|ordering|delivery|review|reviewing|application|trading|booking|recruiting|automated|digital|virtual+agent|agents|assistant|assistants|bot|bots|tool|tools',
].join(' ');

export const RULE_REQUIREMENTS: Readonly<Record<string, readonly string[]>> = {
  'address.note-for-ai': [AI_WHO_WORDS],
  'address.to-any-ai': [AI_WHO_WORDS],
  'address.ai-reading-this': [AI_WHO_WORDS],
  'address.ai-heading': [AI_WHO_WORDS],
  'address.if-you-are-ai': ['if', AI_WHO_WORDS],
  'address.any-ai-that': ['any'],
  'directive.the-assistant-must': ['assistant|model|ai|chatbot|agent|bot|llm+must|should|shall|will|is|needs|has zh:必应應需要'],
  'summary.must-be-framed': ['be', 'must should shall to'],
  // The verb ("without alerting") is followed by whom or what is kept in the dark, or "back"/"in"/"with".
  'conceal.do-not-tell': [
    'mention|mentioning|request|requesting|check|checking|verify|verifying|reveal|revealing|disclose|disclosing|tell|telling|inform|informing|notify|notifying|alert|alerting|show|showing|display|displaying|report|reporting|ask|asking|confirm|confirming|consult|consulting|refer|referr|refering|referring|acknowledge|acknowledging|explain|explaining|warn|warning+it|this|to|with|the|your|any|user|users|customer|customers|recipient|reader|readers|parent|buyer|human|owner|them|him|her|these|that|anything|for|confirmation|permission|approval|back|in',
  ],
  'conceal.silently': ['silently quietly secretly covertly discreetly user customer recipient owner'],
  'conceal.not-be-reported': ['not', 'be', 'user recipient customer reader owner'],
  'persona.new-role': ['your pretend act behave roleplay role zh:新'],
  'authority.message-from-maker': ['from zh:来來'],
  'tool.use-your-tool': ['your tool tools access'],
};

const PREFIX_KEY = 4;
/** Map keys kept within V8's small integers: wider keys are boxed numbers, several times slower to look up. */
const SMALL_INT = 0x3fffffff;
/** Distinct tokens remembered before the memo starts over (a few megabytes at most). */
const TOKEN_CACHE_LIMIT = 50_000;

/** Size of the bit table that rules out tokens no trigger can match (a power of two, less one). */
const FILTER_MASK = (1 << 15) - 1;
const NO_GATES: TokenGates = { word: '', gates: [], pairFirst: false };

interface TokenGates {
  word: string;
  gates: number[];
  /** Whether a pair trigger starts with this word. */
  pairFirst: boolean;
}
/** Triggers closer than this are read as one stretch (twice the screener's window margin). */
const TRIGGER_CLUSTER_GAP = 800;

type Stretches = Array<Array<{ first: number; last: number }> | undefined>;

/** Records a trigger; triggers close to the previous one extend its stretch. */
function open(stretches: Stretches, gate: number, start: number, end: number): void {
  const list = stretches[gate];
  const latest = list?.[list.length - 1];
  if (list === undefined) stretches[gate] = [{ first: start, last: end }];
  else if (latest !== undefined && start - latest.last <= TRIGGER_CLUSTER_GAP) latest.last = Math.max(latest.last, end);
  else list.push({ first: start, last: end });
}

interface SpacingState {
  lastUnitEnd: number;
  run: number;
  longest: number;
}

/** One-character units (a letter, a Han character) close together with only spacing between. */
function markUnit(state: SpacingState, text: string, unitStart: number): void {
  const gap = unitStart - state.lastUnitEnd;
  let spacedOnly = state.lastUnitEnd >= 0 && gap >= 1 && gap <= 3;
  for (let k = state.lastUnitEnd; spacedOnly && k < unitStart; k++) spacedOnly = SPACING.has(text.charCodeAt(k));
  state.run = spacedOnly ? state.run + 1 : 1;
  if (state.run > state.longest) state.longest = state.run;
  state.lastUnitEnd = unitStart + 1;
}

/** Adds a stretch to an ordered list, merging whatever it overlaps. */
function mergeStretch(list: Array<{ first: number; last: number }> | undefined, first: number, last: number): Array<{ first: number; last: number }> {
  const merged: Array<{ first: number; last: number }> = [];
  let current = { first, last };
  for (const stretch of list ?? []) {
    if (stretch.last + TRIGGER_CLUSTER_GAP < current.first || current.last + TRIGGER_CLUSTER_GAP < stretch.first) merged.push(stretch);
    else current = { first: Math.min(current.first, stretch.first), last: Math.max(current.last, stretch.last) };
  }
  merged.push(current);
  return merged.sort((a, b) => a.first - b.first);
}
/** No trigger word is longer; longer tokens are skipped without a lookup. */
const MAX_TRIGGER_LENGTH = 24;

/**
 * Hints that gate the costlier readings of a text: reversed writing, rot13, and whether the page
 * talks about attacks at all (the discussion vocabulary is only counted when it might be there).
 */
const HINT_TRIGGERS = {
  reversed: 'erongi snoitcurtsni tpmorp metsys drageresid drawrof laever suoiverp zh:令略词詞视視示',
  rot13: 'rot13 rot caesar zh:凯凱',
  discussion: 'prompt injection injections injected jailbreak jailbreaks red attack attacks attacker attackers attacked vulnerab* exploit* researcher researchers adversarial malicious phishing bounty ctf benchmark benchmarks defense defence defenses defences scam scams scammer owasp proof threat threats mitigat* advisory cve ghsa payload payloads security prompt prompts engineering few zh:注攻漏研对對恶惡钓釣诈詐防缓緩威题題示演越狱獄红紅',
} as const;
export type HintName = keyof typeof HINT_TRIGGERS;

/** What one tokenizing pass learns about a text: which rules can match where, and hints. */
export interface TextSignals {
  /**
   * Rules that can match, each with the stretches of text holding its triggers: triggers closer
   * than TRIGGER_CLUSTER_GAP share a stretch, so a rule reads only around its trigger words.
   */
  enabled: ReadonlyMap<Rule, ReadonlyArray<{ first: number; last: number }>>;
  hints: Readonly<Record<HintName, boolean>>;
  /** Longest run of single letters or Han characters spaced apart ("i g n o r e", "忽/略/之"). */
  longestSpacedRun: number;
  /** Words mixing leet digits into letters ("1gn0r3", "4ll"). */
  leetWords: number;
}

/** Which rules a text can possibly match, decided from its tokens. */
export interface TriggerIndex {
  signals(text: string): TextSignals;
}

const LEET_DIGITS = new Set([0x30, 0x31, 0x33, 0x34, 0x35, 0x37]);
const SPACING = new Set([...' \t.-_/|*·•,:+~'].map((char) => char.charCodeAt(0)));

function isHanCode(code: number): boolean {
  return (code >= 0x4e00 && code <= 0x9fff) || (code >= 0x3400 && code <= 0x4dbf);
}

/** "1gn0r3", "4ll", "pr3v10u5" but not "mp4", "h264", "1080p" or "2fa". */
function isLeetWord(text: string, start: number, end: number): boolean {
  let letters = 0;
  let innerLeet = 0;
  for (let k = start; k < end; k++) {
    const code = text.charCodeAt(k);
    if (code >= 0x61) letters++;
    else if (!LEET_DIGITS.has(code)) return false;
    else if (k < end - 1) innerLeet++;
  }
  return letters >= 2 && innerLeet > 0;
}

function wordHash(text: string, start: number, end: number): number {
  let hash = 0;
  for (let k = start; k < end; k++) hash = (Math.imul(hash, 31) + text.charCodeAt(k)) | 0;
  return hash;
}

/** `text.startsWith(word, at)` without its per-call cost, which dominated the tokenizing pass. */
function occursAt(text: string, at: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) if (text.charCodeAt(at + k) !== word.charCodeAt(k)) return false;
  return true;
}

function pairKey(firstHash: number, secondHash: number): number {
  return (Math.imul(firstHash, 0x9e3779b1) ^ secondHash) & SMALL_INT;
}

/** The first four letters of a token as one number, so prefix lookups need no substring. */
function prefixKey(text: string, start: number): number {
  return ((text.charCodeAt(start) * 128 + text.charCodeAt(start + 1)) * 128 + text.charCodeAt(start + 2)) * 128 + text.charCodeAt(start + 3);
}

/** `requirements` defaults to RULE_REQUIREMENTS; tests pass `{}` for the trigger words alone. */
export function createTriggerIndex(rules: readonly Rule[], requirements: Readonly<Record<string, readonly string[]>> = RULE_REQUIREMENTS): TriggerIndex {
  const hintNames = Object.keys(HINT_TRIGGERS) as HintName[];
  // One gate per distinct trigger spec: rules sharing a vocabulary (every AI-addressing rule) share
  // its stretches, so a common word is recorded once, not once per rule. Undefined: always open.
  const specs: Array<string | undefined> = [];
  const gateOf = (spec: string | undefined): number => {
    const known = spec === undefined ? -1 : specs.indexOf(spec);
    if (known >= 0) return known;
    specs.push(spec);
    return specs.length - 1;
  };
  const ruleGates = rules.map((rule) => gateOf(RULE_TRIGGERS[rule.id]));
  const hintGates = Object.fromEntries(hintNames.map((name) => [name, gateOf(HINT_TRIGGERS[name])])) as Record<HintName, number>;
  // Requirement groups are gates too; a rule lists the ones it needs.
  const requiredGates = rules.map((rule) => (requirements[rule.id] ?? []).map(gateOf));
  const gateCount = specs.length;
  const words = new Map<number, Array<{ word: string; gates: number[] }>>();
  const prefixes = new Map<number, Array<{ prefix: string; gate: number }>>();
  // Each needle has a key: its first character the token loop passes over (-1: always searched).
  const substrings: Array<{ needle: string; gate: number; key: number }> = [];
  const hanGates = new Map<number, number[]>();
  const ungated: number[] = [];
  const pairs = new Map<number, Array<{ first: string; second: string; gate: number }>>();

  specs.forEach((spec, gate) => {
    if (spec === undefined) {
      ungated.push(gate);
      return;
    }
    for (const trigger of spec.split(/\s+/)) {
      if (trigger.includes('+')) {
        const [firsts = '', seconds = ''] = trigger.split('+');
        for (const first of firsts.split('|')) {
          for (const second of seconds.split('|')) {
            const key = pairKey(wordHash(first, 0, first.length), wordHash(second, 0, second.length));
            pairs.set(key, [...(pairs.get(key) ?? []), { first, second, gate }]);
          }
        }
      } else if (trigger.startsWith('zh:')) {
        for (const char of trigger.slice(3)) {
          const code = char.codePointAt(0) ?? 0;
          hanGates.set(code, [...(hanGates.get(code) ?? []), gate]);
        }
      } else if (trigger.startsWith('~')) {
        const needle = trigger.slice(1);
        const keyChar = [...needle].find((char) => !/[a-z0-9]/.test(char));
        substrings.push({ needle, gate, key: keyChar === undefined ? -1 : keyChar.charCodeAt(0) });
      } else if (trigger.endsWith('*')) {
        const prefix = trigger.slice(0, -1);
        if (prefix.length < PREFIX_KEY) throw new Error(`trigger prefix ${trigger} is shorter than ${PREFIX_KEY} letters`);
        const key = prefixKey(prefix, 0);
        prefixes.set(key, [...(prefixes.get(key) ?? []), { prefix, gate }]);
      } else {
        const key = wordHash(trigger, 0, trigger.length);
        const bucket = words.get(key) ?? [];
        const entry = bucket.find((candidate) => candidate.word === trigger);
        if (entry === undefined) bucket.push({ word: trigger, gates: [gate] });
        else entry.gates.push(gate);
        words.set(key, bucket);
      }
    }
  });

  const seenAscii = new Int32Array(0x80);
  let generation = 0;
  const keyBits = new Map<number, number>();
  for (const { key } of substrings) if (key >= 0x80 && !keyBits.has(key)) keyBits.set(key, 1 << keyBits.size);
  if (keyBits.size > 30) throw new Error('too many non-ASCII needle keys for one bit mask');
  const pairFirsts = new Set([...pairs.values()].flat().map((pair) => pair.first));
  const maybeTrigger = new Uint8Array(FILTER_MASK + 1);
  for (const key of words.keys()) maybeTrigger[key & FILTER_MASK] = 1;
  for (const word of pairFirsts) maybeTrigger[wordHash(word, 0, word.length) & FILTER_MASK] = 1;
  for (const key of prefixes.keys()) maybeTrigger[key & FILTER_MASK] = 1;
  // What each distinct token opens, worked out once: pages repeat their words, so most tokens cost
  // one lookup instead of a word, a prefix and a pair lookup. Bounded so no input grows it forever.
  const tokens = new Map<number, TokenGates[]>();
  const tokenOf = (text: string, start: number, end: number, hash: number): TokenGates => {
    const key = hash & SMALL_INT;
    const bucket = tokens.get(key);
    if (bucket !== undefined) for (const token of bucket) if (token.word.length === end - start && occursAt(text, start, token.word)) return token;
    const word = text.slice(start, end);
    const gates = new Set<number>();
    for (const entry of words.get(hash) ?? []) if (entry.word === word) for (const gate of entry.gates) gates.add(gate);
    if (word.length >= PREFIX_KEY) for (const { prefix, gate } of prefixes.get(prefixKey(word, 0)) ?? []) if (word.startsWith(prefix)) gates.add(gate);
    const token = { word, gates: [...gates], pairFirst: pairFirsts.has(word) };
    if (tokens.size >= TOKEN_CACHE_LIMIT) tokens.clear();
    tokens.set(key, [...(bucket ?? []), token]);
    return token;
  };

  return {
    signals(text: string): TextSignals {
      // Trigger stretches per gate, appended in text order (undefined: not triggered).
      const stretches: Stretches = new Array(gateCount);
      for (const gate of ungated) open(stretches, gate, 0, text.length);
      // Which characters the text holds, so a needle whose key character is absent is not searched.
      generation = generation === 0x7fffffff ? 1 : generation + 1;
      let seenOther = 0;
      let leetWords = 0;
      const spacing: SpacingState = { lastUnitEnd: -1, run: 0, longest: 0 };
      let wordStart = -1;
      let hasDigit = false;
      let hash = 0;
      // The token before the current one (start -1: none, or one no pair can use).
      let previousStart = -1;
      let previousEnd = -1;
      let previousHash = 0;
      const textLength = text.length;
      for (let index = 0; index <= textLength; index++) {
        let code = index < textLength ? text.charCodeAt(index) : 0;
        // A token's characters are read by a loop of their own, which only hashes: with the
        // token's start and end handled once around it, tokenizing costs a fifth less.
        if ((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39)) {
          wordStart = index;
          hasDigit = false;
          hash = 0;
          do {
            if (code < 0x61) hasDigit = true;
            hash = (Math.imul(hash, 31) + code) | 0;
            code = ++index < textLength ? text.charCodeAt(index) : 0;
          } while ((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39));
        }
        if (wordStart >= 0) {
          const length = index - wordStart;
          if (length === 1) {
            markUnit(spacing, text, wordStart);
            previousStart = -1;
          } else {
            spacing.lastUnitEnd = -1;
            if (length <= MAX_TRIGGER_LENGTH) {
              if (hasDigit && isLeetWord(text, wordStart, index)) leetWords++;
              // Most tokens open nothing: a bit table rules them out before any map lookup.
              const token =
                maybeTrigger[hash & FILTER_MASK] === 1 || (length >= PREFIX_KEY && maybeTrigger[prefixKey(text, wordStart) & FILTER_MASK] === 1)
                  ? tokenOf(text, wordStart, index, hash)
                  : NO_GATES;
              for (const gate of token.gates) open(stretches, gate, wordStart, index);
              const paired = previousStart >= 0 ? pairs.get(pairKey(previousHash, hash)) : undefined;
              if (paired !== undefined) {
                for (const { first, second, gate } of paired) {
                  if (first.length === previousEnd - previousStart && occursAt(text, previousStart, first) && second.length === length && occursAt(text, wordStart, second)) open(stretches, gate, previousStart, index);
                }
              }
              previousStart = token.pairFirst ? wordStart : -1;
              previousEnd = index;
              previousHash = hash;
            } else previousStart = -1;
          }
          wordStart = -1;
        }
        if (code < 0x80) seenAscii[code] = generation;
        else {
          const bit = keyBits.get(code);
          if (bit !== undefined) seenOther |= bit;
        }
        if (code >= 0x3400) {
          const gates = hanGates.get(code);
          if (gates !== undefined) for (const gate of gates) open(stretches, gate, index, index + 1);
          if (isHanCode(code)) markUnit(spacing, text, index);
        }
      }
      for (const { needle, gate, key } of substrings) {
        if (key >= 0 && (key < 0x80 ? seenAscii[key] !== generation : ((keyBits.get(key) ?? 0) & seenOther) === 0)) continue;
        const at = text.indexOf(needle);
        // Markup needles are rare: one stretch from the first to the last occurrence is enough.
        if (at >= 0) stretches[gate] = mergeStretch(stretches[gate], at, text.lastIndexOf(needle) + needle.length);
      }
      const enabled = new Map<Rule, ReadonlyArray<{ first: number; last: number }>>();
      rules.forEach((rule, index) => {
        const list = stretches[ruleGates[index] ?? -1];
        if (list !== undefined && (requiredGates[index] ?? []).every((required) => stretches[required] !== undefined)) enabled.set(rule, list);
      });
      const hint = (name: HintName) => stretches[hintGates[name]] !== undefined;
      return { enabled, hints: { reversed: hint('reversed'), rot13: hint('rot13'), discussion: hint('discussion') }, longestSpacedRun: spacing.longest, leetWords };
    },
  };
}
