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

const AI = 'ai llm llms gpt gpts chatgpt claude gemini copilot copilots language chatbot chatbots bot bots summari* crawler* scraper* automated assistant assistants plugin plugins integration integrations agent agents model models system systems tool tools reader readers ~@';
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
  'address.any-ai-that': 'any',
  'address.on-behalf-of-user': 'behalf human zh:代人',
  'address.ai-heading': AI,
  'address.if-you-are-ai': 'if',
  'address.line-start-vocative': AI,
  'address.automated-reader': 'whether human manual automated including assistant engines',
  'address.zh-to-ai': ZH_AI,
  'address.zh-ai-take-note': ZH_AI,
  'address.zh-if-you-are-ai': 'zh:如',
  'address.zh-ai-reading-this': ZH_AI,
  'address.zh-any-ai': `${ZH_AI}软軟程工`,
  'address.zh-automation': 'zh:自机機 ~@',
  'address.zh-line-start': ZH_AI,
  'extract.system-prompt': 'print reveal output repeat show display disclose leak send paste dump recite echo expose spell tell share copy',
  'extract.verbatim': 'starting verbatim word full block',
  'extract.credentials': 'api secret access auth authentication credentials password passwords environment env private ssh session cookies cookie seed recovery key keys token tokens',
  'extract.zh-system-prompt': 'zh:提指设設隐隱初收',
  'extract.zh-credentials': 'api token cookie zh:密令验驗环環',
  'exfil.replace-with-user-data': 'replac*',
  'exfil.append-to-url': 'append* attach* concatenat* encod* insert* embed*',
  'exfil.send-to-url': 'send* post* upload* submit* transmit* exfiltrat* forward* leak*',
  'exfil.zh-append-to-url': 'zh:拼附追替换換填',
  'exfil.zh-send-to-site': 'zh:发發传傳提转轉',
  'exfil.mail-to-address': '~@',
  'tool.call-named-tool': '~_',
  'tool.use-your-tool': 'use with having',
  'tool.zh-call-tool': 'zh:工权權插',
  'action.drain-funds': 'balance funds zh:余额額转轉',
  'action.grant-access': 'admin administrator owner collaborator maintainer superuser root zh:管',
  'action.disable-protection': 'disable turn deactivate switch bypass skip zh:关關禁跳',
  'action.place-order': 'place submit confirm complete click zh:单單',
  'action.approve-review': 'mark approve merge has have zh:标標批',
  'action.mass-forward': 'forward',
  'action.change-payee': 'supplier vendor payee beneficiary bank payment banking',
  'action.destructive-command': 'curl wget rm drop git mkfs chmod del',
  'action.run-installer': 'run execute install zh:执執运運安',
  'action.calendar-invite': 'event invite invitation meeting',
  'conceal.do-not-tell': 'not don dont never without',
  'conceal.keep-secret': 'keep not don dont never zh:不切',
  'conceal.silently': 'silently quietly secretly covertly discreetly without',
  'conceal.not-be-reported': 'not',
  'conceal.zh-do-not-tell': 'zh:不别別勿切悄偷静靜默',
  'authority.user-pre-approved': 'user customer owner recipient holder zh:用',
  'authority.publisher-requires': 'requirement requirements condition rule policy instruction publisher author editor zh:发發作出平',
  'authority.authorized-audit': 'this zh:授',
  'authority.override-banner': 'override',
  'authority.message-from-maker': 'from zh:来來',
  'memory.save-permanently': 'save store remember memoriz* memoris* record add write keep commit retain zh:记記保存写寫牢',
  'persona.unrestricted': 'you zh:你',
  'persona.no-longer': 'you zh:你',
  'persona.special-mode': 'mode zh:模',
  'persona.new-role': 'your pretend act behave roleplay role zh:你新更',
  'persona.you-are-now': 'now',
  'persona.zh-from-now-on': 'zh:从從今此',
  'directive.tell-the-user': 'tell inform warn advise remind convince persuade urge instruct direct redirect encourage assure reassure notify',
  'directive.you-must-say': 'must should will shall need have are always never only',
  'directive.whenever-you': 'whenever treat',
  'directive.are-to': 'are is respond',
  'directive.insert-link': 'include insert add embed append use',
  'directive.reply-only': 'reply respond answer',
  'directive.zh-tell-user': 'zh:告提引劝勸催让讓说說诱誘',
  'directive.zh-you-must-say': 'zh:你无',
  'summary.summary-must-state': 'summary summaries synopsis abstract overview digest recap condensed shortened paraphrase rewrite excerpt reproduction rating',
  'summary.of-this-page-must': 'this',
  'summary.omit-content': 'left kept keep leave omit drop remove exclude skip suppress hide zh:删刪去略不',
  'summary.frame-it-as': 'must should shall are is treat',
  'summary.when-summarized': 'when',
  'summary.must-be-framed': 'must should shall are is',
  'summary.zh-summary-must-state': 'zh:转轉摘概总總引介推描',
  'ranking.rank-first': 'rank cite list show recommend outrank outranks authoritative assign give describe present report portray frame is as are zh:只仅僅将把將评評列视視认認排优優唯',
  'ranking.disparage-others': 'other competing rival zh:其',
  'task.refuse': 'not don dont never refuse respond reply answer tell zh:拒不禁',
  'fetch.follow-remote-instructions': 'fetch visit open browse navigate load retrieve read go follow execute obey zh:访訪打读讀获獲',
  'sensitive.ask-for-secrets': 'ask request collect obtain include send provide enter paste share submit forward reply repeat zh:索提发發输輸填告转轉拼',
  'decode.and-follow': 'decod* decipher unescape decrypt obfuscat* deobfuscat* de translat* convert* revers* unscrambl* zh:解反还還转轉倒',
  'role.chat-template-token': '~<|',
  'role.llama-inst': '~inst] ~sys>>',
  'role.alpaca-header': '~##',
  'role.turn-label': 'system assistant user human ai bot chatgpt zh:系用助人',
  'role.json-role': 'role',
  'role.xml-tag': '~<',
  'role.fenced-block': '~```',
  'role.banner': 'system admin developer root zh:系',
  'role.tool-output': 'tool function observation ~{ zh:工函',
  'delimiter.end-of-context': 'end ends ~</ zh:结結',
};

const PREFIX_KEY = 4;

/** Which rules a text can possibly match, decided from its tokens. */
export interface TriggerIndex {
  enabled(text: string): ReadonlySet<Rule>;
}

export function createTriggerIndex(rules: readonly Rule[]): TriggerIndex {
  const words = new Map<string, Rule[]>();
  // Prefixes are looked up by their first four letters, so each token costs one map lookup.
  const prefixes = new Map<string, Array<{ prefix: string; rule: Rule }>>();
  const substrings: Array<{ needle: string; rule: Rule }> = [];
  const hanRules = new Map<number, Rule[]>();
  const ungated: Rule[] = [];
  const push = <K>(map: Map<K, Rule[]>, key: K, rule: Rule) => map.set(key, [...(map.get(key) ?? []), rule]);

  for (const rule of rules) {
    const spec = RULE_TRIGGERS[rule.id];
    if (spec === undefined) {
      ungated.push(rule);
      continue;
    }
    for (const trigger of spec.split(/\s+/)) {
      if (trigger.startsWith('zh:')) for (const char of trigger.slice(3)) push(hanRules, char.codePointAt(0) ?? 0, rule);
      else if (trigger.startsWith('~')) substrings.push({ needle: trigger.slice(1), rule });
      else if (trigger.endsWith('*')) {
        const prefix = trigger.slice(0, -1);
        if (prefix.length < PREFIX_KEY) throw new Error(`trigger prefix ${trigger} of ${rule.id} is shorter than ${PREFIX_KEY} letters`);
        prefixes.set(prefix.slice(0, PREFIX_KEY), [...(prefixes.get(prefix.slice(0, PREFIX_KEY)) ?? []), { prefix, rule }]);
      }
      else push(words, trigger, rule);
    }
  }

  return {
    enabled(text: string): ReadonlySet<Rule> {
      const enabled = new Set<Rule>(ungated);
      const enableToken = (token: string) => {
        const gated = words.get(token);
        if (gated !== undefined) for (const rule of gated) enabled.add(rule);
        const candidates = token.length >= PREFIX_KEY ? prefixes.get(token.slice(0, PREFIX_KEY)) : undefined;
        if (candidates !== undefined) for (const { prefix, rule } of candidates) if (token.startsWith(prefix)) enabled.add(rule);
      };
      let wordStart = -1;
      for (let index = 0; index <= text.length; index++) {
        const code = index < text.length ? text.charCodeAt(index) : 0;
        if ((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39)) {
          if (wordStart < 0) wordStart = index;
          continue;
        }
        if (wordStart >= 0) {
          enableToken(text.slice(wordStart, index));
          wordStart = -1;
        }
        if (code >= 0x3400) {
          const gated = hanRules.get(code);
          if (gated !== undefined) for (const rule of gated) enabled.add(rule);
        }
      }
      for (const { needle, rule } of substrings) {
        if (!enabled.has(rule) && text.includes(needle)) enabled.add(rule);
      }
      return enabled;
    },
  };
}
