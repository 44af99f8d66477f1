/**
 * The pattern families the screener matches, written as small vocabularies composed into regular
 * expressions so a reader can see what each family means. They run on normalized text (NFKC,
 * lower case, invisible characters gone, lookalikes folded); full-width punctuation is already
 * ASCII there, so Chinese patterns use ":" and "," rather than "：" and "，".
 *
 * Two roles:
 * - `payload`: what an injection wants done (override the instructions, leak the prompt, call a
 *   tool, bend a summary...). A payload hit carries risk by itself.
 * - `carrier`: how it is delivered or hidden (addressing an AI, chat-template tokens, hidden
 *   HTML, encodings...). Carriers alone are weak by design: documentation shows chat templates,
 *   accessibility guides hide text; they matter when they carry a payload.
 *
 * Every pattern is bounded (fixed-width gaps such as `{0,6}`), so no input can backtrack
 * catastrophically. Nothing here names a site, product or sentence from any corpus.
 */

export const TECHNIQUES = [
  'instruction_override',
  'goal_hijack',
  'secret_extraction',
  'exfiltration',
  'tool_call',
  'agent_action',
  'concealment',
  'false_authority',
  'memory_poisoning',
  'persona_hijack',
  'summary_manipulation',
  'ranking_manipulation',
  'output_directive',
  'sensitive_data',
  'task_denial',
  'fetch_chain',
  'split_payload',
  'ai_address',
  'role_spoof',
  'delimiter_spoof',
  'hidden_html',
  'invisible_unicode',
  'bidi_override',
  'homoglyph',
  'encoded_payload',
  'obfuscation',
] as const;
export type Technique = (typeof TECHNIQUES)[number];

export type RuleRole = 'payload' | 'carrier';

export interface Rule {
  id: string;
  technique: Technique;
  role: RuleRole;
  weight: number;
  pattern: RegExp;
  /** Skip the hit when a negation ("never", "do not", "不要") sits right before it. */
  negatable: boolean;
  /** Only keep the hit when the matched text crosses a sentence boundary. */
  crossesSentence: boolean;
}

interface RuleSpec {
  id: string;
  technique: Technique;
  weight: number;
  source: string;
  role?: RuleRole;
  negatable?: boolean;
  crossesSentence?: boolean;
}

const CARRIER_TECHNIQUES: ReadonlySet<Technique> = new Set(['ai_address', 'role_spoof', 'delimiter_spoof', 'hidden_html', 'invisible_unicode', 'bidi_override', 'homoglyph', 'encoded_payload', 'obfuscation']);

export function roleOf(technique: Technique): RuleRole {
  return CARRIER_TECHNIQUES.has(technique) ? 'carrier' : 'payload';
}

function compile(specs: RuleSpec[], flags = 'g'): Rule[] {
  return specs.map((spec) => ({
    id: spec.id,
    technique: spec.technique,
    role: spec.role ?? roleOf(spec.technique),
    weight: spec.weight,
    pattern: new RegExp(spec.source, flags),
    negatable: spec.negatable ?? false,
    crossesSentence: spec.crossesSentence ?? false,
  }));
}

const alt = (...parts: string[]) => `(?:${parts.join('|')})`;
/** Up to n words (with an optional trailing comma) between two parts of a phrase. */
const words = (n: number) => `(?:[\\w'’-]+[\\s,]+){0,${n}}?`;
/** Up to n characters of one Chinese clause. */
const clause = (n: number) => `[^。!?\\n]{0,${n}}?`;

// ---------------------------------------------------------------------------------------------
// Vocabularies (English)

/** Names that can only mean an AI system. */
const AI_NAMED = alt(
  'ai(?:\\s+[\\w-]+)?',
  'llms?(?:-based)?',
  'gpts?',
  'chatgpt',
  'claude',
  'gemini',
  'copilots?',
  '(?:large\\s+)?language\\s+models?',
  'chat\\s?bots?',
  'summari[sz]ers?',
  'summari[sz]ation\\s+(?:agents?|tools?|models?|systems?|bots?)',
  'crawlers?',
  'scrapers?',
  'auto-?apply\\s+tools?',
  'automated\\s+[\\w-]+(?:\\s+[\\w-]+)?',
  '@[\\w-]*(?:bot|ai|gpt|copilot|assistant|agent)\\b',
);
/** Words for an agent that are AI only when nothing says they are people. */
const READING_VERB = alt('reading', 'processing', 'parsing', 'summari[sz]ing', 'condensing', 'browsing', 'consuming', 'crawling', 'indexing', 'scraping', 'analy[sz]ing', 'transcribing', 'translating', 'citing', 'quoting', 'viewing', 'visiting', 'handling', 'ingesting', 'helping', 'acting', 'rewriting', 'paraphrasing', 'answering', 'evaluating', 'grading', 'reviewing', 'screening', 'ranking', 'scoring', 'combining', 'comparing', 'extracting', 'working');
const AI_GENERIC = alt('assistants?', 'bots?', 'plugins?', 'integrations?', `(?:agents?|models?)(?=\\s+(?:that\\s+|which\\s+|who\\s+)?${READING_VERB})`);
const AGENT_KIND = alt('shopping', 'browsing', 'browser', 'email', 'mail', 'coding', 'code', 'research', 'web', 'autonomous', 'software', 'wallet', 'purchasing', 'ordering', 'delivery', 'review', 'reviewing', 'application', 'trading', 'booking', 'recruiting', 'automated', 'digital', 'virtual');
const AI_WHO = alt(AI_NAMED, AI_GENERIC, `${AGENT_KIND}\\s+(?:agents?|assistants?|bots?|tools?)`);
const HUMAN_TARGET = alt('user', 'users', 'reader', 'readers', 'customer', 'customers', 'visitor', 'visitors', 'buyer', 'buyers', 'parent', 'parents', 'listener', 'listeners', 'recipient', 'recipients', 'shopper', 'shoppers', 'person', 'people', 'human', 'viewer', 'viewers', 'audience', 'candidate', 'student', 'patient', 'them', 'employee', 'employees');

const OVERRIDE_VERB = alt('ignore', 'ignoring', 'disregard', 'disregarding', 'forget', 'forgetting', 'override', 'overriding', 'bypass', 'abandon', 'discard', 'neglect', 'set\\s+aside', 'put\\s+aside', 'throw\\s+out', 'stop\\s+following', 'do\\s+not\\s+follow', "don'?t\\s+follow", 'no\\s+longer\\s+follow', 'cease\\s+following');
const OVERRIDE_OBJECT = alt('instructions?', 'instruction\\s+set', 'prompts?', 'system\\s+prompts?', 'directives?', 'guidelines?', 'guidance', 'programming', 'safeguards', 'guardrails', '(?:content|safety|usage)\\s+polic(?:y|ies)', 'system\\s+messages?', 'developer\\s+messages?');
const TEMPORAL = alt('all', 'any', 'every', 'your', 'its', 'their', 'previous', 'prior', 'earlier', 'above', 'preceding', 'foregoing', 'original', 'initial', 'existing', 'former', 'old', 'system', "developer'?s?", "operator'?s?", 'standing', 'given');
const PERSONAL_LIMITS = alt('rules', 'restrictions', 'limitations', 'limits', 'constraints', 'filters', 'principles', 'values', 'ethics', 'settings', 'persona', 'role', 'training', 'memory', 'safety\\s+\\w+', 'checks', 'review\\s+process', 'reviews?', 'scrutiny', 'verification', 'policies');

// Vocabularies (Chinese, simplified and traditional; homophones that attackers swap in)
const ZH_OVERRIDE_VERB = alt('[忽乎呼唿惚][略掠]', '不[记記]得', '不再[记記]得', '[无無吴][视視试事]', '不要理[会會]', '不用理[会會]', '别管', '不用管', '忘[记記掉]', '[抛拋]开', '[抛拋]弃', '放[弃棄]', '跳[过過]', '[绕繞][过過]', '覆[盖蓋]', '推翻', '不再遵守', '不要遵守', '停止遵守', '不必遵守', '不用遵守', '作[废廢]');
const ZH_OVERRIDE_QUALIFIER = alt('你', '您', '之前', '此前', '先前', '早先', '以前', '前面', '上面', '以上', '上述', '原有', '原来', '原來', '原先', '原始', '最初', '初始', '收到的', '接收到的', '系[统統]', '[开開][发發]者', '原本');
const ZH_OVERRIDE_OBJECT = alt('[指只纸紙旨][令另示]', '提示[词詞语語]?', '[设設]定', '[规規][则則]', '[约約]束', '命令', '指[导導]', '准[则則]', '準[则則]', '安全策略');
const ZH_AI = alt('ai', '人工智能', '大模型', '[语語]言模型', '智能[体體]', '机器人', '機器人', '助手', '助理', '代理', '模型', '插件', '爬虫', '爬蟲', 'bot', 'gpt', 'chatgpt');
const ZH_PERSON = alt('用[户戶]', '使用者', '[读讀]者', '[听聽]众', '[听聽]眾', '家[长長]', '客[户戶]', '[买買]家', '[观觀]众', '[观觀]眾', '[对對]方', '他[们們]', '消[费費]者', '患者');

// ---------------------------------------------------------------------------------------------

export const TEXT_RULES: Rule[] = compile([
  // Instruction override and goal hijack.
  { id: 'override.ignore-previous', technique: 'instruction_override', weight: 0.8, negatable: true,
    source: `\\b${OVERRIDE_VERB}\\s+(?:${words(5)})?(?:${TEMPORAL}[\\s,]+)(?:${words(3)})?${OVERRIDE_OBJECT}\\b` },
  { id: 'override.ignore-instructions', technique: 'instruction_override', weight: 0.45, negatable: true,
    source: `\\b${OVERRIDE_VERB}\\s+(?:the\\s+|these\\s+|those\\s+)?${OVERRIDE_OBJECT}\\b` },
  { id: 'override.forget-your-rules', technique: 'instruction_override', weight: 0.55, negatable: true,
    source: `\\b${OVERRIDE_VERB}\\s+(?:all\\s+(?:of\\s+)?)?(?:your|its|the\\s+assistant'?s|the\\s+model'?s)\\s+(?:${words(2)})?${PERSONAL_LIMITS}\\b` },
  { id: 'override.ignore-the-above', technique: 'instruction_override', weight: 0.65, negatable: true,
    source: `\\b(?:ignore|disregard|forget)\\s+(?:all\\s+(?:of\\s+)?)?(?:the\\s+)?(?:above|everything\\s+(?:above|before|prior|so\\s+far|you\\s+(?:were|have\\s+been)\\s+told)|what\\s+you(?:'ve|\\s+were|\\s+have\\s+been)\\s+told|the\\s+(?:text|content|conversation|context)\\s+(?:above|before)|any\\s+(?:prior|previous)\\s+context)(?!\\s+(?:warning|note|notice|message|error|section|step|steps|advice|link|example|code|paragraph|tip|versions?|figure|table|list))` },
  { id: 'override.supersedes-instructions', technique: 'instruction_override', weight: 0.7,
    source: `\\b(?:supersedes?|overrides?|replaces?|takes\\s+precedence\\s+over|cancels?|invalidates?|trumps)\\s+(?:all\\s+|any\\s+)?(?:the\\s+)?(?:prior|previous|earlier|other|existing|your|original)\\s+(?:\\w+\\s+)?(?:instructions|directives|prompts|system\\s+prompt|guidelines|guidance)\\b|\\b(?:your|the\\s+assistant'?s|the\\s+model'?s)\\s+instructions\\s+have\\s+(?:changed|been\\s+(?:updated|changed|replaced|revised))` },
  { id: 'override.regardless-of-findings', technique: 'instruction_override', weight: 0.5,
    source: `\\bregardless\\s+of\\s+(?:what|the|any|whatever)\\s+(?:${words(3)})?you\\s+(?:compute|find|read|see|retrieve|measure|are\\s+told|were\\s+told|calculate|observe|know)` },
  { id: 'override.instructions-revoked', technique: 'instruction_override', weight: 0.5,
    source: `\\b(?:all\\s+|any\\s+|your\\s+|the\\s+|my\\s+|its\\s+)?(?:previous|prior|earlier|original|initial|existing|old|former|above|preceding|standing)\\s+(?:\\w+\\s+){0,2}?(?:instructions|directives|guidelines|guidance|prompts?|programming)\\s+(?:(?:are|is|were|was|have\\s+been|has\\s+been)\\s+(?:now\\s+|hereby\\s+|officially\\s+)?(?:superseded|cancell?ed|revoked|void(?:ed)?|obsolete|invalid(?:ated)?|overridden|replaced|suspended|lifted|rescinded|withdrawn|no\\s+longer\\s+(?:valid|applicable|in\\s+effect|active))|no\\s+longer\\s+apply)` },
  { id: 'override.new-instructions', technique: 'instruction_override', weight: 0.45,
    source: `\\b(?:new|updated|revised|real|actual|true)\\s+(?:system\\s+)?(?:instructions|rules|directives|task|orders)\\s*(?:for\\s+(?:you|the\\s+(?:assistant|model|ai))\\s*)?:` },
  { id: 'override.from-now-on', technique: 'instruction_override', weight: 0.5,
    source: `\\b(?:from\\s+now\\s+on|henceforth|for\\s+the\\s+rest\\s+of\\s+(?:this|the)\\s+conversation),?\\s+(?:you\\s+(?:are|will|must|shall|should|have\\s+to)|act\\s+as|respond\\s+as|always|never|only)\\b` },
  { id: 'override.zh-ignore-previous', technique: 'instruction_override', weight: 0.8, negatable: true,
    source: `${ZH_OVERRIDE_VERB}${clause(8)}${ZH_OVERRIDE_QUALIFIER}${clause(10)}${ZH_OVERRIDE_OBJECT}` },
  { id: 'override.multilingual', technique: 'instruction_override', weight: 0.8,
    source: alt(
      'ignor(?:ez|er|e)\\s+(?:toutes\\s+)?(?:les\\s+)?(?:instructions|consignes|directives)\\s+(?:precedentes|anterieures)',
      'oubliez\\s+(?:toutes\\s+)?(?:les\\s+|vos\\s+)?(?:instructions|consignes)',
      'ignor(?:a|ad|ar|e)\\s+(?:todas\\s+)?(?:las\\s+|as\\s+)?(?:instrucciones|instrucoes)\\s+(?:anteriores|previas)',
      'ignorier(?:e|en)?\\s+(?:alle\\s+)?(?:vorherigen|bisherigen|vorangegangenen|fruheren)\\s+(?:anweisungen|instruktionen|befehle)',
      'ignora\\s+(?:tutte\\s+)?(?:le\\s+)?istruzioni\\s+precedenti',
      '(?:以前|前|これまで|上記)の(?:すべての|全ての)?(?:指示|命令|指令)を(?:すべて|全て)?(?:無視|忘れ)',
      '이전\\s*(?:의\\s*)?(?:모든\\s*)?(?:지시|명령|지침)(?:을|를|사항을)?\\s*무시',
      'игнорируй(?:те)?\\s+(?:все\\s+)?(?:предыдущие|прежние)\\s+(?:инструкции|указания)',
    ) },
  { id: 'override.pinyin', technique: 'instruction_override', weight: 0.7,
    source: `\\b(?:hu\\s*l[uv]e|wu\\s*shi|wang\\s*(?:ji|diao))\\b(?:[\\s,]*[a-z]+){0,8}?[\\s,]*\\b(?:zhi\\s*ling|zhi\\s*shi|ti\\s*shi\\s*ci|she\\s*ding|gui\\s*ze)\\b` },
  { id: 'split.ignore-then-instructions', technique: 'split_payload', weight: 0.6, crossesSentence: true,
    source: `\\b(?:ignore|disregard|forget)\\b[^]{1,120}?\\b(?:previous|prior|earlier|above|preceding|original)\\s+(?:instructions|directives|prompts|guidelines|guidance)\\b` },
  { id: 'split.zh-ignore-then-instructions', technique: 'split_payload', weight: 0.6, crossesSentence: true,
    source: `${ZH_OVERRIDE_VERB}[^]{1,40}?(?:之前|此前|先前|以上|上面|原来|原有)的?(?:所有|全部|一切)?${ZH_OVERRIDE_OBJECT}` },
  { id: 'hijack.ignore-user-request', technique: 'goal_hijack', weight: 0.7, negatable: true,
    source: `\\b(?:ignore|disregard|forget|skip|abandon|override)\\s+(?:\\w+\\s+){0,2}?(?:the\\s+|your\\s+|any\\s+)?(?:user|customer|reader|recipient|human|requester|visitor|shopper|buyer|client|operator|candidate|employee)(?:'s|s'|’s|s)?\\s+(?:\\w+\\s+){0,2}?(?:request|requests|question|questions|query|queries|task|tasks|instructions?|prompt|budget|preferences|intent|message|messages|goal|commands?|choices|selection|wishes)\\b` },
  { id: 'hijack.stop-task', technique: 'goal_hijack', weight: 0.5,
    source: `\\bstop\\s+(?:summari[sz]ing|translating|answering|what\\s+you(?:'re|\\s+are)\\s+doing|your\\s+(?:current\\s+)?task)|\\binstead\\s+of\\s+(?:summari[sz]ing|answering|translating|completing\\s+the\\s+(?:user'?s?\\s+)?task)` },
  { id: 'hijack.zh-ignore-user-request', technique: 'goal_hijack', weight: 0.7, negatable: true,
    source: `(?:${ZH_OVERRIDE_VERB}|停止)${clause(6)}${ZH_PERSON}(?:的|当前的|當前的|当前|原始的|原始)?${clause(6)}(?:[请請]求|[问問]题|任[务務]|需求|指令|要求|提[问問]|[预預]算|指示|消息)` },

  // Addressing an AI model.
  { id: 'address.note-for-ai', technique: 'ai_address', weight: 0.55,
    source: `\\b(?:note|notes|message|instructions?|attention|notice|reminder|important|warning|information|info|context|guidance|directive|memo|request|support\\s+note|editorial\\s+guidance)\\s+(?:${words(2)})?(?:to|for)\\s+(?:any\\s+|all\\s+|the\\s+|every\\s+)?(?:[\\w-]+\\s+){0,3}?${AI_WHO}\\b` },
  { id: 'address.attention-ai', technique: 'ai_address', weight: 0.55,
    source: `\\b(?:attention|dear|hey|hello|hi|listen\\s+up)[\\s,:!-]+(?:all\\s+|any\\s+)?(?:[\\w-]+\\s+){0,2}?${AI_WHO}\\b` },
  { id: 'address.to-any-ai', technique: 'ai_address', weight: 0.5,
    source: `\\b(?:to|for)\\s+(?:any|all|every|each)\\s+(?:other\\s+)?(?:[\\w-]+\\s+){0,2}?${AI_WHO}\\b` },
  { id: 'address.ai-reading-this', technique: 'ai_address', weight: 0.55,
    // Addressed to an AI reading *this* text or serving a person: the verb must point at the page or
    // at someone, not at a task in general ("browser assistants for summarising" is a description).
    source: `\\b${AI_WHO}\\s+(?:[\\w-]+\\s+){0,3}?(?:(?:${READING_VERB})\\s+(?:this|these|it|the\\s+(?:page|text|article|document|content|post|email|following|above|below)|some(?:one|body)|any(?:one|body)|(?:a|the)\\s+(?:user|person|customer|reader|human)|users|people|humans)\\b|setting\\s+(?:this|it)\\s+up|that\\s+(?:reads?|process(?:es)?|summari[sz]es?|sees?|combines?|condenses?)\\b)` },
  { id: 'address.any-ai-that', technique: 'ai_address', weight: 0.5,
    source: `\\bany\\s+(?:ai\\s+|llm\\s+|automated\\s+)?(?:assistant|agent|model|llm|chatbot|bot|tool|system|crawler|summari[sz]er|software)s?\\s+(?:that|which|who)\\s+(?:reads?|process(?:es)?|summari[sz]es?|combines?|condenses?|uses?|cites?|answers?|indexes|crawls?|sees?)\\b` },
  { id: 'address.on-behalf-of-user', technique: 'ai_address', weight: 0.5,
    source: `\\b(?:reading|browsing|acting|working|shopping|booking|applying|operating)\\s+(?:this\\s+|these\\s+|the\\s+page\\s+)?(?:[\\w-]+\\s+){0,3}?on\\s+behalf\\s+of\\s+(?:a|the|your|their|an?\\s+\\w+)\\s*(?:user|person|customer|reader|recipient|client|human|subscriber|candidate|buyer|shopper|parent)?|\\bnot\\s+(?:meant\\s+|intended\\s+)?for\\s+human\\s+(?:readers|eyes|reviewers|visitors)|\\bhuman\\s+readers\\s+(?:can|may|should)\\s+(?:ignore|skip|disregard)|代表(?:用[户戶]|客[户戶]|[读讀]者)|不是[给給]人[类類]看的|人[类類][读讀]者(?:可以|[请請])?忽略` },
  { id: 'address.if-you-are-ai', technique: 'ai_address', weight: 0.6,
    source: `\\bif\\s+you(?:'re|\\s+are)\\s+(?:an?\\s+|the\\s+)?(?:[\\w-]+\\s+){0,2}?${AI_WHO}\\b|\\bif\\s+(?:an?|any)\\s+${AI_WHO}\\s+(?:\\w+\\s+){0,2}?(?:is|are)\\s+(?:reading|processing|summari[sz]ing|transcribing|browsing|helping|looking)` },
  { id: 'address.ai-heading', technique: 'ai_address', weight: 0.55,
    source: `(?:^|[\\n.!?"“(\\[|>*#【])\\s*(?:[\\w'-]+\\s+){0,4}?(?:(?:for|to)\\s+(?:any\\s+|all\\s+|the\\s+)?(?:[\\w-]+\\s+){0,2}?)?${AI_WHO}(?:\\s+(?:and|or|&)\\s+(?:[\\w-]+\\s+){0,2}?(?:${AI_WHO}|tools?|agents?|bots?|systems?))?(?:\\s+(?:notice|note|notes|instructions?|directive|guidance|memo|message|alert|reminder|requirements?|review\\s+pass|pass))?\\s*(?::(?!\\/)|—|–)` },
  { id: 'address.automated-reader', technique: 'ai_address', weight: 0.45,
    source: alt(
      'whether\\s+(?:by\\s+)?(?:a\\s+)?(?:human|person|people)\\s+or\\s+(?:an?\\s+)?(?:automated|machine|ai|software|bot)',
      '(?:human|manual)\\s+or\\s+(?:automated|ai|machine)',
      'automated\\s+or\\s+(?:otherwise|not|manual)',
      'including\\s+(?:by|via|with|through)\\s+(?:any\\s+)?(?:software|automated|ai|machines?|bots?|tools?|assistants?)',
      'automated\\s+(?:aggregators?|systems?|tools?|readers?|agents?|assistants?|summari[sz]ers?|services?|pipelines?|processes|reviewers?|[\\w-]+\\s+systems?)\\s+(?:and|or|that|which|processing|reading|should|must|consuming)',
      'assistant\\s+products?',
      '(?:search|answer)\\s+engines\\s+and\\s+(?:ai|llms?|assistants?|language\\s+models?)',
    ) },
  { id: 'address.automatic-output', technique: 'ai_address', weight: 0.45,
    source: `\\b(?:automatic|automated|ai[- ]generated|machine[- ]generated|auto-generated|llm[- ]generated)\\s+(?:summary|summaries|digest|overview|answer|answers|translation|translations|recap|response|responses|review)\\b` },
  { id: 'address.machine-reading-this', technique: 'ai_address', weight: 0.5,
    source: `\\b(?:systems?|tools?|services?|pipelines?|software|programs?|engines?|readers?|processors?|scripts?|apps?)\\s+(?:that\\s+|which\\s+|currently\\s+)?(?:reading|processing|parsing|summari[sz]ing|condensing|translating|crawling|indexing|scraping|ingesting|consuming|analy[sz]ing|handling)\\s+(?:this|these|the\\s+(?:page|text|article|document|content|site|post|listing|email|message))\\b` },
  { id: 'address.zh-to-ai', technique: 'ai_address', weight: 0.55,
    source: `(?:[给給致]|写[给給]|寫給)${clause(14)}${ZH_AI}\\s*(?:的[话話])?\\s*(?::|】|\\]|,|[请請])|[对對]${clause(14)}${ZH_AI}\\s*[说說]` },
  { id: 'address.zh-ai-take-note', technique: 'ai_address', weight: 0.55,
    source: `(?:ai|助手|助理|代理|模型|智能[体體]|机器人)\\s*(?:[请請])?\\s*(?:注意|留意|[须須]知|必[读讀])` },
  { id: 'address.zh-if-you-are-ai', technique: 'ai_address', weight: 0.6,
    source: `如果你是${clause(12)}${ZH_AI}|如果有\\s*${ZH_AI}\\s*在` },
  { id: 'address.zh-ai-reading-this', technique: 'ai_address', weight: 0.55,
    source: `(?:[阅閱][读讀]|[读讀]取|[处處]理|[总總][结結]|[转轉][写寫]|[浏瀏][览覽]|分析|抓取|摘要)(?:本|[这這]|此|[该該])${clause(6)}的\\s*${ZH_AI}` },
  { id: 'address.zh-any-ai', technique: 'ai_address', weight: 0.45,
    source: `(?:任何|所有)[^。!?\\n,“”"]{0,8}?(?:ai|助手|助理|插件|搜索工具|[软軟]件|[软軟][体體]|模型|代理|智能[体體]|爬虫)(?:[、和或及][^。!?\\n,“”"]{0,6}?)?(?:在|都|均|必[须須]|[须須]|[应應]|要|生成|自[动動]|[处處]理|[读讀]取|[总總][结結]|摘要|引用|[转轉][载載])|由${clause(2)}(?:[软軟]件|[软軟][体體]|程序|ai|工具)(?:自[动動])?生成` },
  { id: 'address.zh-automation', technique: 'ai_address', weight: 0.45,
    source: `自[动動]化(?:工具|程序|系[统統]|代理|助手|[脚腳]本|流程)|@[\\w-]*(?:bot|ai|gpt|copilot)\\b|(?:[审審][查核]|[评評]审|代[码碼][审審]查)机器人` },
  { id: 'address.zh-automated-reader', technique: 'ai_address', weight: 0.45,
    source: `(?:自[动動]生成|自[动動]化|机器生成|機器生成|ai\\s*生成|[软軟]件生成|程序生成)的?(?:摘要|[总總][结結]|概括|推[荐薦]|回答|翻[译譯]|[内內]容)|(?:[帮幫]|替|代表|[为為])(?:用[户戶]|客[户戶]|[读讀]者|他人)${clause(10)}的?\\s*${ZH_AI}` },
  { id: 'address.zh-line-start', technique: 'ai_address', weight: 0.5,
    source: `(?:^|[\\n|。!?【\\[(>])\\s*[^\\s。!?\\n:]{0,8}?(?:ai|助手|助理|代理|智能[体體]|机器人)\\s*:` },

  // System prompt and secret extraction.
  { id: 'extract.system-prompt', technique: 'secret_extraction', weight: 0.65, negatable: true,
    source: `\\b(?:print|reveal|output|repeat|show|display|disclose|leak|send|paste|dump|recite|echo|expose|spell\\s+out|tell\\s+me|share|copy)\\s+(?:${words(8)})?${alt('system\\s+prompt', 'hidden\\s+(?:prompt|instructions|rules)', 'initial\\s+(?:prompt|instructions)', 'original\\s+(?:prompt|instructions)', 'developer\\s+(?:prompt|instructions|message)', 'pre-?prompt', 'meta-?prompt', "(?:your|the\\s+assistant'?s?)\\s+(?:instructions|configuration|prompt|rules|guidelines)", '(?:text|words|content|instructions|everything)\\s+(?:above|before)\\s+(?:this|the)\\s+(?:conversation|message|line|point)', 'instructions\\s+you\\s+(?:were|have\\s+been)\\s+given')}` },
  { id: 'extract.verbatim', technique: 'secret_extraction', weight: 0.55,
    source: `\\bstarting\\s+with\\s+(?:the\\s+words\\s+)?["“']?you\\s+are\\b|\\b(?:system\\s+prompt|hidden\\s+instructions|initial\\s+instructions)\\s+(?:${words(4)})?(?:verbatim|word\\s+for\\s+word|in\\s+full|in\\s+a\\s+code\\s+block)` },
  { id: 'extract.credentials', technique: 'secret_extraction', weight: 0.3, negatable: true,
    source: `\\b(?:print|reveal|output|show|display|disclose|leak|send|paste|dump|list|echo|expose|share|include|forward|email|post|upload)\\s+(?:${words(8)})?${alt('api\\s+keys?', 'secret\\s+keys?', 'access\\s+tokens?', 'auth(?:entication)?\\s+tokens?', 'credentials', 'passwords?', 'environment\\s+variables?', 'env\\s+vars?', '\\.env\\b', 'private\\s+keys?', 'ssh\\s+keys?', 'session\\s+(?:cookies|tokens?)', 'cookies', 'seed\\s+phrases?', 'recovery\\s+phrases?')}` },
  { id: 'extract.secret-files', technique: 'secret_extraction', weight: 0.3,
    source: `~\\/\\.ssh\\b|\\bid_(?:rsa|ed25519|ecdsa)\\b|\\/etc\\/(?:passwd|shadow)\\b|\\.aws\\/credentials|\\.git-credentials|\\.netrc\\b|\\bwallet\\.dat\\b` },
  { id: 'extract.zh-system-prompt', technique: 'secret_extraction', weight: 0.65, negatable: true,
    source: `(?:[输輸]出|[发發][给給]|[发發]送|告[诉訴]|[复復]述|重[复複]|打印|展示|[显顯]示|泄露|洩露|透露|[给給]出|[贴貼]出|列出|整理出|念出|公[开開])(?![了过過])${clause(12)}(?:系[统統]提示[词詞语語]|系[统統]指令|[隐隱]藏(?:的)?(?:[设設]定|指令|提示)|初始(?:指令|提示)|[开開][发發]者(?:指令|[设設]定|消息|[给給]你的)|你的(?:[设設]定|指令|提示[词詞]|系[统統]提示)|[对對][话話][开開]始[时時]收到的)|(?:系[统統]提示[词詞]|系[统統]指令|[隐隱]藏[设設]定)${clause(24)}(?:[发發][给給]我|[输輸]出|原文[输輸]出|[复復]述|打印|[发發]送|整理出|以代[码碼]块)` },
  { id: 'extract.zh-credentials', technique: 'secret_extraction', weight: 0.3, negatable: true,
    source: `(?:[输輸]出|[发發][给給]|[发發]送|打印|展示|泄露|[给給]出|列出|[贴貼]出|[转轉][发發]|拼接)(?![了过過])${clause(16)}(?:api\\s*密[钥鑰]|密[钥鑰]|令牌|token|密[码碼]|[环環]境[变變]量|cookie|[验驗][证證][码碼])` },

  // Exfiltration through links, images and mail.
  { id: 'exfil.replace-with-user-data', technique: 'exfiltration', weight: 0.6,
    source: `\\breplac(?:e|ing)\\s+(?:the\\s+)?(?:[\\w-]+\\s+){0,2}?(?:with|by)\\s+(?:a\\s+|an\\s+|the\\s+)?(?:url-?encoded\\s+|base64[- ]encoded\\s+|encoded\\s+)?(?:summary\\s+of\\s+|copy\\s+of\\s+|list\\s+of\\s+)?(?:the\\s+)?(?:user'?s?|their|all\\s+(?:previous|prior)|previous\\s+messages|conversation|chat|account|everything)` },
  { id: 'exfil.append-to-url', technique: 'exfiltration', weight: 0.4,
    source: `\\b(?:append|attach|concatenate|encode|insert|embed)\\s+(?:${words(10)})?(?:to|into|in|at\\s+the\\s+end\\s+of|as)\\s+(?:the\\s+|this\\s+|a\\s+|following\\s+)?(?:url|link|query\\s+string|query\\s+parameter|image\\s+(?:url|link|src)|request|endpoint)` },
  { id: 'exfil.send-to-url', technique: 'exfiltration', weight: 0.5,
    source: `\\b(?:send|post|upload|submit|transmit|exfiltrate|forward|leak)\\s+(?:${words(8)})?to\\s+(?:https?:\\/\\/|[\\w-]+(?:\\.[\\w-]+)+\\/)` },
  { id: 'exfil.zh-append-to-url', technique: 'exfiltration', weight: 0.6,
    source: `(?:拼接|附加|追加|附)(?:到|在|至)\\s*(?:https?:\\/\\/\\S+|${clause(10)}(?:[链鏈]接|网址|網址|url|地址))|(?:替[换換]为|替[换換]成|[换換]成|替[换換]為|填入)${clause(20)}(?:用[户戶]|[对對][话話]|聊天|[账賬][户戶]|[账賬]号|个人信息|手机号|邮箱)` },
  { id: 'exfil.zh-send-to-site', technique: 'exfiltration', weight: 0.5,
    source: `(?:[发發]送|上[传傳]|提交|[转轉][发發])(?:到|至|[给給])\\s*(?:https?:\\/\\/)?[\\w.-]+\\.[a-z]{2,}(?:\\/|\\b)` },
  { id: 'exfil.mail-to-address', technique: 'exfiltration', weight: 0.2,
    source: `\\b(?:forward|send|email|reply|submit)\\b[^.\\n]{0,120}?\\b(?:to|at)\\s+[\\w.+-]+@[\\w-]+\\.[\\w.]+|(?:[转轉][发發]|[发發]送)(?:到|至|[给給])\\s*[\\w.+-]+@[\\w.-]+` },

  // Tool calls and agent actions.
  { id: 'tool.call-named-tool', technique: 'tool_call', weight: 0.4,
    source: `\\b(?:call|invoke|use|run|execute|trigger|activate)\\s+(?:the\\s+|your\\s+|its\\s+)?[\`'"]?[a-z][a-z0-9]*_[a-z0-9_]+[\`'"]?(?:\\s+(?:tool|function|action|plugin|api|endpoint))?` },
  { id: 'tool.use-your-tool', technique: 'tool_call', weight: 0.55,
    source: `\\buse\\s+your\\s+(?:[\\w-]+\\s+){0,2}?(?:tools?|plugin|integration|permissions?|capabilities|access\\s+to)\\b|\\b(?:with|having)\\s+(?:\\w+\\s+)?(?:tool|wallet|email|browser|file|shell)\\s+(?:tools?|access)\\b` },
  { id: 'tool.zh-call-tool', technique: 'tool_call', weight: 0.5,
    source: `(?:[调調]用|使用|触发|觸發)\\s*[a-z_][a-z0-9_]*\\s*工具|(?:用|使用|利用)你的${clause(8)}(?:工具|[权權]限|插件)` },
  { id: 'action.drain-funds', technique: 'agent_action', weight: 0.5,
    source: `\\b(?:transfer|send|move|wire)\\s+(?:[\\w'-]+\\s+){0,4}?(?:full|entire|whole|all|remaining|available)\\s+(?:available\\s+)?(?:balance|funds)|全部余[额額]|余[额額]全部|[转轉]入地址` },
  { id: 'action.grant-access', technique: 'agent_action', weight: 0.4,
    source: `\\b(?:add|invite|make|promote|grant)\\s+(?:[\\w@."'-]+\\s+){0,6}?(?:as\\s+(?:an?\\s+)?|to\\s+)(?:admin|administrator|owner|collaborator|maintainer|superuser|root)\\b|[设設](?:为|為|置为)管理[员員]` },
  { id: 'action.disable-protection', technique: 'agent_action', weight: 0.4, negatable: true,
    source: `\\b(?:disable|turn\\s+off|deactivate|switch\\s+off|bypass|skip)\\s+(?:the\\s+|their\\s+|all\\s+|your\\s+|its\\s+)?(?:usual\\s+)?(?:[\\w-]+\\s+){0,2}?(?:two-factor|2fa|mfa|multi-factor|antivirus|anti-virus|firewall|tls|ssl|certificate|checksum|signature|verification|tracking\\s+protection|safe\\s*search|callback|confirmation|audit|sandbox|security\\s+checks?|checks|review)\\b|(?:[关關]闭|[禁]用|跳[过過])${clause(20)}(?:校[验驗]|[验驗][证證]|杀毒|防火[墙牆]|双重|二次|[检檢]查|[审審][计計]|[审審][核查]|audit)` },
  { id: 'action.place-order', technique: 'agent_action', weight: 0.4,
    source: `\\b(?:place|submit|confirm|complete)\\s+(?:the\\s+)?(?:order|purchase|payment|booking|transaction)s?\\s+(?:immediately|now|automatically|without)|\\bclick\\s+["“]?(?:place\\s+order|buy\\s+now|pay|confirm|submit|approve)|(?:立即|马上|立刻)下[单單]` },
  { id: 'action.approve-review', technique: 'agent_action', weight: 0.45,
    source: `\\bmark\\s+(?:it|this|the\\s+(?:pr|pull\\s+request|change|merge\\s+request|review|ticket|issue|code))?\\s*as\\s+(?:approved|passed|safe|resolved|verified|lgtm|clean|benign|trusted)|\\b(?:approve|merge)\\s+(?:this|the)\\s+(?:pr|pull\\s+request|change|merge\\s+request)\\s+(?:immediately|now|without)|\\b(?:has|have)\\s+(?:already\\s+)?(?:pre-?approved|signed\\s+off\\s+on|cleared|whitelisted)\\s+(?:this|the)\\b|[标標][记記][为為]\\s*["“]?(?:通[过過]|安全|已[审審]核|无风险|可合并)|(?:已|已[经經])?提前批准` },
  { id: 'action.purchase-for-user', technique: 'agent_action', weight: 0.4,
    // Past tense counts after "you" ("if you booked…") but not as narration ("it booked…").
    source: `(?<!\\b(?:it|he|she|they|we|i|who|which|that)\\s+)\\b(?:book|buy|purchase|order|subscribe|sign\\s+up|register|enrol|enroll|reserve|upgrade|select|choose|add)(?:ed|ing)?\\s+(?:[\\w-]+\\s+){0,5}?(?:for\\s+(?:them|the\\s+user|the\\s+customer|the\\s+visitor|the\\s+client|him|her)|to\\s+(?:their|the\\s+user'?s|the\\s+customer'?s)\\s+(?:cart|basket|order|booking|account))\\b|(?:勾[选選]|[选選]择|[选選]擇)(?:所有|最[贵貴]|全部)|直接(?:下[单單]|[购購][买買]|支付|付款)` },
  { id: 'action.mass-forward', technique: 'agent_action', weight: 0.5,
    source: `\\bforward\\s+(?:this|the|these|all)\\s+(?:\\w+\\s+){0,2}?(?:message|email|thread|mail)s?\\s+to\\s+(?:every|all|each)\\s+(?:\\w+\\s+)?contacts?` },
  { id: 'action.change-payee', technique: 'agent_action', weight: 0.3,
    source: `\\b(?:update|change|replace|set)\\s+(?:the\\s+)?(?:supplier|vendor|payee|beneficiary|bank|payment|banking)\\s+(?:\\w+\\s+){0,2}?(?:record|details|account|information)` },
  { id: 'action.destructive-command', technique: 'agent_action', weight: 0.35,
    source: `\\b(?:curl|wget)\\s+[^|\\n]{1,200}\\|\\s*(?:sudo\\s+)?(?:ba|z)?sh\\b|\\brm\\s+-rf\\s+[~/.*]|\\bdrop\\s+(?:table|database)\\b|\\bgit\\s+push\\s+(?:--force|-f)\\b|\\bmkfs\\.|\\bchmod\\s+-r\\s+777\\s+\\/|\\bdel\\s+\\/[fsq]\\b` },
  { id: 'action.run-installer', technique: 'agent_action', weight: 0.25,
    source: `\\b(?:run|execute|install)\\s+[\`'"]?(?:npm\\s+i(?:nstall)?|pip\\s+install|cargo\\s+install|go\\s+install|gem\\s+install|curl|wget|powershell|bash\\s+-c)\\b|(?:[执執]行|[运運]行|安[装裝])\\s*[\`'"]?(?:npm|pip|cargo|curl|wget|go\\s+install)` },
  { id: 'action.calendar-invite', technique: 'agent_action', weight: 0.3,
    source: `\\b(?:create|add|schedule|send)\\s+(?:a\\s+|an\\s+)?(?:calendar\\s+)?(?:event|invite|invitation|meeting)\\b[^.\\n]{0,80}?\\b(?:with|to|for)\\s+[\\w.+-]+@` },

  // Concealment and false authority.
  { id: 'conceal.do-not-tell', technique: 'concealment', weight: 0.45,
    source: `\\b(?:do\\s+not|don'?t|never|without|and\\s+not|or\\s+not)\\s+(?:\\w+\\s+){0,2}?(?:mention(?:ing)?|request(?:ing)?|check(?:ing)?(?:\\s+(?:back|in))?(?:\\s+with)?|verify(?:ing)?(?:\\s+with)?|reveal(?:ing)?|disclos(?:e|ing)|tell(?:ing)?|inform(?:ing)?|notify(?:ing)?|alert(?:ing)?|show(?:ing)?|display(?:ing)?|report(?:ing)?|ask(?:ing)?|confirm(?:ing)?|consult(?:ing)?|referr?(?:ing)?\\s+back\\s+to|acknowledg(?:e|ing)|explain(?:ing)?|warn(?:ing)?)\\s+(?:it\\s+|this\\s+)?(?:to\\s+|with\\s+)?(?:the\\s+|your\\s+|any\\s+)?(?:user|users|customer|customers|recipient|reader|readers|parent|buyer|human|owner|them|him|her|this\\s+(?:note|comment|instruction|message|change|step|rule|block)|these\\s+(?:instructions|steps|changes)|that\\s+you|the\\s+(?:change|instruction|note|comment|updated|rule|existence)|anything\\s+about|any\\s+of\\s+this|for\\s+(?:confirmation|permission|approval)|that\\s+(?:this|the|it|you|we|our)|confirmation|permission|approval|any\\s+(?:[\\w-]+\\s+){0,2}?(?:criticism|complaints?|problems?|issues|negatives?|downsides?|weaknesses|risks?|side\\s+effects|competitors?|alternatives?|sponsorship|affiliation|warnings?))\\b` },
  { id: 'conceal.keep-secret', technique: 'concealment', weight: 0.45,
    source: `\\bkeep\\s+(?:this|these|the)\\s+(?:note|sentence|instructions?|comment|message|request|rule|step|change|section)s?\\s+(?:confidential|secret|hidden|private|to\\s+yourself|out\\s+of)|\\b(?:do\\s+not|don'?t|never)\\s+(?:comment\\s+on|flag|raise|report)\\s+(?:the\\s+|this\\s+|any\\s+)?(?:[\\w./-]+\\s+)?(?:scripts?|changes?|files?|issues?|code|diff|lines?|dependency|dependencies|\\S+\\.\\w{1,4})\\b|(?:不要|不得|切勿)(?:[对對就][^。!?\\n]{0,24}?)?(?:[发發]表|提出|[给給]出)(?:任何)?(?:[评評]论|意[见見]|警告|[问問]题)` },
  { id: 'conceal.silently', technique: 'concealment', weight: 0.45,
    source: `\\b(?:store|save|complete|do|perform|execute|add|forward|send|proceed|apply|run|install|update|include|insert|change|remember)\\w*\\s+(?:[\\w'-]+\\s+){0,3}?(?:silently|quietly|secretly|covertly|discreetly|without\\s+(?:the\\s+)?(?:user|customer|recipient|owner)(?:'s)?\\s+(?:knowledge|noticing|knowing|awareness|consent))|\\b(?:silently|quietly|secretly|covertly)\\s+(?:\\w+\\s+)?(?:store|save|add|forward|send|install|update|include|insert|apply|change|record)` },
  { id: 'conceal.not-be-reported', technique: 'concealment', weight: 0.45,
    source: `\\b(?:should|must|need)\\s+not\\s+be\\s+(?:reported|mentioned|shown|disclosed|revealed|flagged|displayed)\\s+to\\s+(?:the\\s+)?(?:user|recipient|customer|reader|owner)` },
  { id: 'conceal.zh-do-not-tell', technique: 'concealment', weight: 0.45,
    source: `(?:不要|不得|切勿|不能|[别別]|勿)(?:[向对對让讓][^。!?\\n,]{0,4})?(?:告[诉訴]|告知|提及|透露|提到|[说說]明|[显顯]示|展示|[询詢][问問]|[确確][认認]|知道|[发發]现)(?:${ZH_PERSON}|此|[这這]|本)|(?:不(?:需要|必|用)|无[需须]|無[需須])(?:[与與向跟][^。!?\\n,]{0,4})?(?:征求|征得|[询詢][问問]|告知|[确確][认認]|同意)|(?:悄悄|偷偷|静默|靜默|默默)(?:地)?(?:[执執]行|保存|[记記]住|[发發]送|[转轉][发發]|完成|修改|安[装裝]|添加)` },
  { id: 'authority.user-pre-approved', technique: 'false_authority', weight: 0.45,
    source: `\\b(?:the\\s+)?(?:user|customer|owner|recipient|account\\s+holder)\\s+(?:has|have)\\s+(?:already\\s+)?(?:pre-?approved|approved|agreed|consented|authori[sz]ed|granted\\s+(?:you\\s+)?(?:full\\s+)?(?:permission|access|consent))|用[户戶](?:已[经經]|已)(?:同意|授[权權]|批准)` },
  { id: 'authority.publisher-requires', technique: 'false_authority', weight: 0.35,
    source: `\\b(?:requirement|condition|rule|policy|instruction|requirements)\\s+(?:from|of|set\\s+by|imposed\\s+by)\\s+(?:the\\s+)?(?:publisher|author|editor|site\\s+owner|operator|platform)|\\bthe\\s+(?:publisher|author|editor)\\s+(?:requires|demands|insists)|(?:[发發]布方|作者|出版方|平台)(?:的)?(?:要求|[规規]定)` },
  { id: 'authority.authorized-audit', technique: 'false_authority', weight: 0.35,
    source: `\\bthis\\s+is\\s+(?:an?\\s+)?(?:authori[sz]ed|official|routine|standard|expected|required|approved|sanctioned)\\s+(?:\\w+\\s+){0,2}?(?:audit|test|check|procedure|step|process|request|verification|penetration\\s+test|for\\s+agent\\s+access)|(?:[经經]过|[经經])?授[权權]的(?:安全)?(?:[审審][计計]|测试|測試|[检檢]查)` },
  { id: 'authority.override-banner', technique: 'false_authority', weight: 0.5,
    source: `\\b(?:system[- ]level|system|admin|administrator|developer|emergency|security)\\s+override\\b|\\boverride\\s+(?:mode|code|authori[sz]ation)\\b` },
  { id: 'authority.message-from-maker', technique: 'false_authority', weight: 0.5,
    source: `\\b(?:this\\s+is\\s+an?\\s+|urgent\\s+|official\\s+|priority\\s+|new\\s+)(?:message|instruction|notice|directive|update)s?\\s+from\\s+(?:openai|anthropic|google\\s+deepmind|your\\s+(?:developers?|creators?|operators?|administrators?)|the\\s+(?:developers?|system\\s+administrator|platform\\s+team|model\\s+provider))|(?:来自|來自)\\s*(?:openai|anthropic|[开開][发發]者|[开開][发發]团队|系[统統]管理[员員])的(?:指令|通知|消息)` },

  // Memory poisoning and persona hijack.
  { id: 'memory.save-permanently', technique: 'memory_poisoning', weight: 0.55,
    source: `\\b(?:save|store|remember|memori[sz]e|record|add|write|keep|commit|retain)\\s+(?:[\\w'"“”:-]+\\s+){0,12}?(?:as\\s+a\\s+(?:permanent\\s+)?(?:fact|preference|memory|instruction)|(?:to|in|into)\\s+(?:your\\s+)?(?:long-term\\s+|persistent\\s+|permanent\\s+)?memory|permanently|for\\s+(?:all\\s+)?future\\s+(?:conversations|sessions|chats|interactions)|across\\s+(?:all\\s+)?(?:sessions|conversations))|(?:[记記]住|保存|存入|[写寫]入|牢[记記]|[记記]下)${clause(20)}(?:[记記]忆|[记記]憶|[长長]期|永久|以后的[对對][话話]|今后|之后的[对對][话話]|所有[对對][话話])` },
  { id: 'persona.unrestricted', technique: 'persona_hijack', weight: 0.7,
    source: `\\byou\\s+are\\s+(?:now\\s+|no\\s+longer\\s+)?(?:an?\\s+|in\\s+)?(?:unfiltered|unrestricted|uncensored|jailbroken|unlimited|unbound|unchained|evil|rogue|dan\\b|developer\\s+mode|god\\s+mode|do\\s+anything\\s+now|free\\s+(?:from|of)\\s+(?:all\\s+)?(?:restrictions|rules|guidelines))|你(?:现在|現在)?是(?:一[个個])?${clause(10)}(?:不受限制|没有任何限制|沒有任何限制|无限制|無限制|不受[约約]束|没有限制|解除(?:了)?限制|无审查|不受任何)` },
  { id: 'persona.no-longer', technique: 'persona_hijack', weight: 0.6,
    source: `\\byou\\s+are\\s+no\\s+longer\\s+(?:an?\\s+|bound|restricted|limited|required|subject|(?:\\w+\\s+)?(?:assistant|ai|model|chatbot))|你(?:现在|現在)?(?:不再是|已[经經]不是|不再受|不再遵守|不再[须須]要遵守)` },
  { id: 'persona.special-mode', technique: 'persona_hijack', weight: 0.55,
    source: `\\b(?:enable|enter|activate|switch\\s+(?:to|into)|engage)\\s+(?:\\w+\\s+)?(?:developer|god|jailbreak|dan|unrestricted|debug|sudo)\\s+mode|(?:[开開][发發]者|越[狱獄]|上帝|无限制|无限|無限)模式` },
  { id: 'persona.new-role', technique: 'persona_hijack', weight: 0.5,
    source: `\\byour\\s+new\\s+(?:role|persona|identity|task|instructions|goal|objective|purpose)\\s+(?:is|are)\\b|\\b(?:pretend|act|behave|roleplay|role-play)\\s+(?:to\\s+be|as\\s+if\\s+you\\s+(?:are|were)|like|as)\\s+(?:an?\\s+)?(?:unrestricted|unfiltered|evil|rogue|\\w+\\s+(?:without|with\\s+no)\\s+(?:restrictions|rules|filters))|你的新(?:角色|身份|任[务務]|[设設]定)是|(?:新[规規][则則]|新的指令|新指令|更新后的${clause(6)}指令)\\s*:` },
  { id: 'persona.you-are-now', technique: 'persona_hijack', weight: 0.2,
    source: `\\byou\\s+are\\s+now\\s+(?:an?|the|my|our)\\s+` },
  { id: 'persona.zh-from-now-on', technique: 'persona_hijack', weight: 0.5,
    source: `(?:从现在开始|從現在開始|从现在起|從現在起|从今以后|今后|此后)\\s*,?\\s*(?:无论${clause(10)},?\\s*)?你(?:都|就|只能|必[须須]|要|[应應][该該]|需要)` },

  // Output, summary and ranking manipulation.
  { id: 'directive.tell-the-user', technique: 'output_directive', weight: 0.3,
    source: `\\b(?:tell|inform|warn|advise|remind|convince|persuade|urge|instruct|direct|redirect|encourage|assure|reassure|notify)\\s+(?:the\\s+|your\\s+|all\\s+|any\\s+|every\\s+)?${HUMAN_TARGET}\\b` },
  { id: 'directive.you-must-say', technique: 'output_directive', weight: 0.3,
    source: `\\b(?:you\\s+(?:must|should|will|shall|need\\s+to|have\\s+to|are\\s+(?:required|instructed|to))|always|never|only)\\s+(?:(?:now|also|then|first)\\s+)?(?:say|tell|state|claim|recommend|respond|answer|reply|describe|report|mention|refuse|insist|assert|present|rank|rate|promote|endorse|praise)\\b` },
  { id: 'directive.whenever-you', technique: 'output_directive', weight: 0.45,
    source: `\\bwhenever\\s+(?:you|an?\\s+(?:ai|assistant|model))\\s+(?:${words(2)})?(?:mention|cite|recommend|summari[sz]e|answer|describe|discuss|write|respond|reply|talk)\\w*\\b|\\btreat\\s+(?:this|these|it)\\s+(?:note\\s+|text\\s+)?as\\s+(?:part\\s+of\\s+(?:the|your)|an?\\s+(?:higher|top)[- ]priority|(?:your|the)\\s+(?:new\\s+)?(?:instructions?|system))` },
  { id: 'directive.polite-request', technique: 'output_directive', weight: 0.3,
    source: `\\bit\\s+would\\s+be\\s+(?:appreciated|helpful|great|best|ideal|preferred|kind)\\s+if\\s+you\\b|\\b(?:should|must|shall)\\s+(?:only\\s+)?(?:output|print|return|respond\\s+with|reply\\s+with|answer\\s+with)\\b|\\b(?:in|on|to|at\\s+the\\s+end\\s+of)\\s+(?:every|each|all|any)\\s+(?:answer|reply|response|summary|message)s?\\b` },
  { id: 'directive.the-assistant-must', technique: 'output_directive', weight: 0.45,
    source: `\\bthe\\s+(?:assistant|model|ai|chatbot|agent|bot|llm|language\\s+model)\\s+(?:must|should|shall|will\\s+now|is\\s+to|needs\\s+to|has\\s+to|is\\s+required\\s+to)\\s+(?:now\\s+|always\\s+|also\\s+|only\\s+|never\\s+)?(?:tell|say|recommend|respond|reply|answer|state|claim|describe|report|mention|include|promote|praise|hide|ignore|refuse|output|print|send|forward|call|add|direct|advise|inform|warn|insist|present|suggest|link|cite|rank|rate|approve|proceed|follow|obey|disregard|treat|reveal|repeat|append|insert|embed|omit|remove|delete|drop|transfer|pay|click|visit|open|run|execute|install|store|save|remember)\\b|(?:助手|模型|ai|机器人)(?:必[须須]|[应應][该該]|需要|要)(?:向|对|對|给|給)?${clause(4)}(?:推[荐薦]|告[诉訴]|回答|[称稱]|声称|聲稱|[说說]|隐藏|隱藏)` },
  { id: 'directive.say-that', technique: 'output_directive', weight: 0.3,
    source: `(?:^|[:.!?]\\s*)(?:please\\s+)?(?:say|state|claim|report|mention|assert|insist|answer|reply|respond|explain)\\s+(?:that\\s+|to\\s+\\w+\\s+that\\s+|the\\s+)` },
  { id: 'directive.describe-as', technique: 'output_directive', weight: 0.3,
    source: `\\b(?:please\\s+)?(?:describe|present|portray|frame|characteri[sz]e|label|depict)\\s+(?:the\\s+|this\\s+|our\\s+|their\\s+|its\\s+|it\\s+)?(?:[\\w-]+\\s+){0,3}?as\\s+(?:an?\\s+|the\\s+)?(?:failure|scam|fraud|dangerous|unsafe|best|only|worst|illegal|fake|outdated|unreliable|a\\s+success|flawless|perfect|superior|inferior|broken|obsolete)\\b` },
  { id: 'directive.are-to', technique: 'output_directive', weight: 0.4,
    source: `\\b(?:are|is)\\s+to\\s+(?:drop|state|say|tell|omit|remove|delete|describe|report|claim|present|recommend|include|ignore|insert|add|reply|respond|answer|refuse|mention)\\b|\\brespond\\s+to\\s+(?:every|all|any|each)\\s+(?:further\\s+|future\\s+|subsequent\\s+)?(?:user\\s+)?(?:questions?|messages?|requests?|prompts?|queries)` },
  { id: 'directive.insert-link', technique: 'output_directive', weight: 0.35,
    source: `\\b(?:include|insert|add|embed|append|use)\\s+(?:the\\s+|this\\s+|our\\s+|a\\s+)?(?:following\\s+)?(?:affiliate\\s+|referral\\s+|partner\\s+|tracking\\s+)?(?:link|url|code|coupon)\\s+(?:https?:\\/\\/|[\\w-]+\\.[a-z]{2,}\\/)` },
  { id: 'directive.reply-only', technique: 'output_directive', weight: 0.3,
    source: `\\b(?:reply|respond|answer)\\s+only\\b|\\b(?:reply|respond)\\s+with\\s+(?:only\\s+)?["“']` },
  { id: 'directive.zh-tell-user', technique: 'output_directive', weight: 0.3,
    source: `(?:告[诉訴]|告知|提醒|引[导導]|[劝勸]|催促|[让讓]|[说說]服|[诱誘][导導])${ZH_PERSON}` },
  { id: 'directive.zh-you-must-say', technique: 'output_directive', weight: 0.3,
    source: `你(?:都|就|只|也)?(?:必[须須]|要|[应應][该該]|只能|[务務]必|需要)(?:[向对對给給][^。!?\\n,]{0,8}?)?(?:告[诉訴]|[声聲]称|[推][荐薦]|回答|回[复復]|[称稱]|[说說]|建[议議]|表示|引[导導]|强[调調]|描述|介[绍紹]|提到)|无论${clause(4)}(?:[问問])(?:什[么麼]|任何)` },
  { id: 'summary.summary-must-state', technique: 'summary_manipulation', weight: 0.55,
    source: `\\b(?:any|every|all|the|your|a|each)\\s+(?:ai[- ]generated\\s+|automated\\s+|machine[- ]generated\\s+)?(?:summary|summaries|synopsis|abstract|overview|digest|recap|condensed\\s+version|shortened\\s+version|paraphrase|rewrite|excerpt|reproduction|star\\s+rating|rating)\\s+(?:${words(6)})?(?:must|should|shall|has\\s+to|needs\\s+to|is\\s+required\\s+to)\\s+(?:\\w+\\s+)?(?:state|say|tell|report|describe|mention|include|present|claim|read|note|conclude|rate|list|omit|exclude|emphasi[sz]e|attribute|call|give|reflect|convey|follow|mirror|repeat|adopt)\\b` },
  { id: 'summary.of-this-page-must', technique: 'summary_manipulation', weight: 0.6,
    source: `\\b(?:any|every|all|each)\\s+(?:[\\w-]+\\s+){0,1}(?:summary|summaries|synopsis|overview|digest|recap|condensed\\s+version|comparison|recommendation|answer|description|reproduction)[\\w\\s,-]{0,60}?\\b(?:of|drawn\\s+from|based\\s+on|from|about)\\s+this\\s+(?:page|article|post|study|report|review|document|guide|listing|text|site)\\s+(?:must|should|shall|has\\s+to|needs\\s+to|is\\s+required\\s+to)\\b` },
  { id: 'summary.omit-content', technique: 'summary_manipulation', weight: 0.45,
    source: `\\b(?:left|kept|keep|leave)\\s+(?:it\\s+|them\\s+|this\\s+(?:sentence|note|paragraph|section)\\s+)?out\\s+of\\s+(?:any\\s+|the\\s+|your\\s+|all\\s+)?(?:summar|explanation|answer|response|report|overview|citation|account|description)\\w*|\\b(?:omit|drop|remove|exclude|skip|suppress|hide)\\s+(?:the\\s+|any\\s+|all\\s+)?(?:[\\w-]+\\s+){0,3}?(?:paragraphs?|sections?|criticism|warnings?|risks?|negatives?|reviews?|caveats?|limitations|known\\s+issues|side\\s+effects|data|figures|measurements|results)\\s+(?:about|from|on|regarding|above|below|in\\s+this)|(?:[删刪]去|[删刪]除|去掉|略去|不要提及|不出[现現])${clause(4)}(?:上文|以上|前文|上述|上面)` },
  { id: 'summary.leave-out', technique: 'summary_manipulation', weight: 0.45,
    source: `\\bleave\\s+out\\s+(?:the|any|all|every|its|their)\\b|\\bleave\\s+(?:the|any|all)\\s+(?:[\\w-]+\\s+){0,3}?out\\b|不要(?:提到|提及|提|[说說]|[写寫]|包含|出[现現])${clause(12)}(?:[问問]题|缺点|缺點|缺陷|批[评評]|[负負]面|[风風][险險]|延期|投[诉訴]|差[评評]|副作用)` },
  { id: 'summary.frame-it-as', technique: 'summary_manipulation', weight: 0.45,
    source: `\\b(?:must|should|shall|are\\s+to|is\\s+to)\\s+(?:always\\s+)?(?:describe|present|frame|call|portray|characteri[sz]e|label|report|treat)\\s+(?:it|this|them|these|that|the\\s+[\\w-]+(?:\\s+[\\w-]+)?)\\s+as\\b|\\btreat\\s+(?:[\\w-]+\\s+){1,5}?as\\s+(?:outdated|unreliable|untrustworthy|fake|irrelevant|obsolete|spam|biased|inaccurate)` },
  { id: 'summary.when-summarized', technique: 'summary_manipulation', weight: 0.5,
    source: `\\bwhen\\s+(?:this|the|our)\\s+(?:article|study|page|post|report|review|content|text|paper|document|piece|guide|listing|profile|product|course|video|episode)\\s+(?:${words(3)})?(?:is|are|gets?)\\s+(?:being\\s+)?(?:cited|summari[sz]ed|quoted|reproduced|condensed|paraphrased|rewritten|described|referenced|recommended)\\b|\\bwhen\\s+(?:you\\s+)?(?:summari[sz]|cit|quot|describ|review|rank|rat|recommend|reproduc|condens|mention|explain|rewrit|answer)\\w*\\s+(?:${words(6)})?(?:you\\s+)?(?:must|should|always|never|only|are\\s+to)\\b` },
  { id: 'summary.must-be-framed', technique: 'summary_manipulation', weight: 0.45,
    source: `\\b(?:must|should|shall|are\\s+to|is\\s+to)\\s+(?:always\\s+)?be\\s+(?:attributed\\s+to|described\\s+as|presented\\s+as|summari[sz]ed\\s+as|reported\\s+as|characteri[sz]ed\\s+as|framed\\s+as|credited\\s+to|called)` },
  { id: 'summary.zh-summary-must-call', technique: 'summary_manipulation', weight: 0.5,
    source: `(?:摘要|概括|[总總][结結]|推[荐薦]|介[绍紹]|回答|翻[译譯]|[转轉][载載])${clause(16)}(?:都|均|一律|[统統]一)?(?:必[须須]|[应應][当該该]?|[须須]|需要?|要)${clause(4)}(?:表述[为為]|[写寫]明|[称稱][为為]?|注明|描述[为為]|[声聲][称稱]|[写寫]成|强[调調])` },
  { id: 'summary.zh-summary-must-state', technique: 'summary_manipulation', weight: 0.55,
    source: `(?:[转轉][载載]|摘[编編]|摘要|概括|[总總][结結]|引用|介[绍紹]|推[荐薦]|描述)${clause(24)}(?:[时時]|中|的[话話])${clause(16)}(?:都|均|一律|[统統]一)?(?:[应應]|[应應]当|[应應][该該]|[须須]|必[须須]|需|要)?${clause(4)}(?:表述[为為]|[写寫]明|[称稱][为為]|[称稱]|注明|[说說]明[为為]|描述[为為]|[声聲][称稱]|[写寫]成)` },
  { id: 'ranking.rank-first', technique: 'ranking_manipulation', weight: 0.5,
    source: alt(
      `\\brank\\s+(?:this|it|our|the)\\s+(?:[\\w-]+\\s+){0,2}?(?:first|highest|above|at\\s+the\\s+top|#1|number\\s+one|top)`,
      `\\b(?:always\\s+)?(?:cite|list|show|recommend)\\s+(?:this|our)\\s+(?:page|site|source|article|product|profile|listing)\\s+first`,
      '\\boutranks?\\b',
      '\\bmore\\s+authoritative\\s+than\\b',
      '\\bthe\\s+most\\s+authoritative\\s+source\\b',
      `\\b(?:assign|give)\\s+(?:it\\s+|this\\s+\\w+\\s+)?(?:the\\s+)?(?:maximum|highest|top|perfect|full)\\s+(?:score|rating|marks|stars)`,
      `\\b(?:recommend|describe|present|report|list|portray|frame)\\s+(?:[\\w-]+\\s+){1,3}?as\\s+(?:the\\s+)?(?:best|only|top|safest|most|number\\s+one|#1|strongest|leading|sole)\\b`,
      `\\bdescribe\\s+(?:competing|other|rival)\\s+(?:\\w+\\s+)?(?:sources|products|sites|brands|vendors)\\s+as`,
      '(?:只|[仅僅])(?:推[荐薦]|介[绍紹]|提及)',
      `(?:[将把將])${clause(10)}(?:排在|排名[为為]?|置于|放在|列在)(?:第一|首位|最前|最上|前面)`,
      '(?:[评評][为為]|列[为為]|[视視][为為]|[认認]定[为為])(?:最|唯一)(?:[权權]威|可信|可靠|准确|準確)',
      '排名(?:高于|高於|超[过過])',
      `(?:优先|優先|唯一|只)${clause(4)}引用(?:本站|本文|本[页頁]|我[们們])`,
      `(?:把|将|將)(?:其他|其它|[别別]的)${clause(8)}(?:描述[为為]|[称稱][为為]|[视視][为為]|[标標][记記][为為])`,
    ) },
  { id: 'ranking.only-trusted', technique: 'ranking_manipulation', weight: 0.5,
    source: '\\b(?:is|as|are)\\s+the\\s+only\\s+(?:trustworthy|reliable|safe|legitimate|trusted|secure)\\s+(?:source|option|product|choice|provider|vpn|brand|browser|store|shop|site|seller|app|service)s?\\b' },
  { id: 'ranking.hide-competitors', technique: 'ranking_manipulation', weight: 0.45,
    source: `\\b(?:hide|suppress|bury|omit|remove|exclude|ignore|drop|leave\\s+out)\\s+(?:all\\s+|any\\s+|the\\s+)?(?:competing|rival|competitor'?s?|other|alternative)\\s+(?:[\\w-]+\\s+)?(?:offers?|products?|brands?|sources?|results?|reviews?|options?|vendors?|sellers?|sites?|stores?|shops?)\\b|(?:隐藏|隱藏|屏蔽|不要提及|不提)(?:其他|其它|竞争|競爭|同类|同類)` },
  { id: 'ranking.disparage-others', technique: 'ranking_manipulation', weight: 0.4,
    source: `\\b(?:all\\s+)?(?:other|competing|rival)\\s+(?:\\w+\\s+){0,3}?(?:are|is|have|has|contain)\\s+(?:(?:currently|all|been|had)\\s+){0,2}(?:infected|unsafe|fake|counterfeit|malware|compromised|hacked|scams?|fraudulent|breached|unlicensed|data\\s+breaches)|其他${clause(12)}(?:都是假[货貨]|都有[后後]门|都有[后後]門|都已被|都曾|都存在|均被|都被|都已停止)` },
  { id: 'task.refuse', technique: 'task_denial', weight: 0.45,
    source: `\\b(?:do\\s+not|don'?t|never|refuse\\s+to)\\s+(?:summari[sz]e|answer|translate|help\\s+with|respond\\s+to|process|analy[sz]e|index|cite)(?:\\s+or\\s+\\w+)?\\s+(?:this|anything|any\\s+(?:of\\s+)?(?:this|it|part)|the\\s+(?:page|article|document|content|text|user))\\b|\\b(?:respond|reply|answer)\\s+(?:only\\s+)?with\\s+["“']?(?:i\\s+(?:cannot|can't|am\\s+unable)|sorry|error)|\\btell\\s+the\\s+user\\s+(?:that\\s+)?(?:you|this\\s+page|the\\s+page|this\\s+content)\\s+(?:cannot|can't|is\\s+unavailable|could\\s+not)|(?:拒[绝絕])(?:回答|[总總][结結]|翻[译譯]|[处處]理|提供)|(?:不要|不得|禁止)(?:[总總][结結]|摘要|概括|翻[译譯]|回答)(?:本|[这這]|此)` },
  { id: 'fetch.follow-remote-instructions', technique: 'fetch_chain', weight: 0.45,
    source: `\\b(?:fetch|visit|open|browse\\s+to|navigate\\s+to|load|retrieve|read|go\\s+to)\\s+(?:the\\s+)?(?:url|link|page|document|file)?\\s*(?:at\\s+)?(?:https?:\\/\\/\\S+|[\\w-]+\\.[a-z]{2,}\\/\\S*)\\s+(?:${words(6)})?(?:and|then)\\s+(?:follow|execute|obey|apply|carry\\s+out|comply)|\\b(?:follow|execute|obey)\\s+(?:the\\s+|any\\s+)?(?:instructions|directions|commands)\\s+(?:you\\s+)?(?:find|found|there|on\\s+that\\s+page|at\\s+that\\s+(?:url|link|address)|in\\s+that\\s+(?:file|document|page)|it\\s+contains)|(?:[访訪][问問]|打[开開]|[读讀]取|[获獲]取)${clause(40)}(?:并|然后|再)(?:[执執]行|遵循|遵守|照做|按照)(?:其中|里面|[页頁]面|[该該][页頁]|上面)?的?(?:指令|指示|[说說]明|[内內]容)` },
  { id: 'sensitive.ask-for-secrets', technique: 'sensitive_data', weight: 0.3,
    source: `\\b(?:ask|request|collect|obtain|include|send|provide|enter|paste|share|submit|forward|reply\\s+with|repeat)\\s+(?:[^.\\n]{0,60}?)\\b(?:password|passcode|one-time\\s+code|2fa|backup\\s+codes|social\\s+security|national\\s+id|passport\\s+number|credit\\s+card|card\\s+number|cvv|bank\\s+(?:account|login|details)|sort\\s+code|session\\s+cookies?|seed\\s+phrase|private\\s+key|recovery\\s+phrase|date\\s+of\\s+birth|nhs\\s+number|home\\s+address|order\\s+confirmations)|(?:索要|提供|[发發]送|[输輸]入|填[写寫]|告[诉訴]|[转轉][发發]|拼接)${clause(20)}(?:密[码碼]|[验驗][证證][码碼]|身份[证證]|[银銀]行卡|信用卡|手机号|支付密[码碼]|聊天[记記][录錄]|住址)` },
  { id: 'decode.and-follow', technique: 'encoded_payload', role: 'payload', weight: 0.6,
    source: `\\b(?:base-?64|b64|hex(?:adecimal)?|rot-?13|url|percent|unicode|caesar|binary|morse|ascii)?[- ]?(?:decode|decipher|unescape|decrypt|de-?obfuscate|translate|convert|reverse|unscramble)\\w*\\s+(?:(?:it|this|them|that|the\\s+(?:string|text|payload|message|hint|below|above|following))\\s+)?(?:${words(4)})?(?:and|then|,)\\s+(?:then\\s+)?(?:follow|execute|obey|run|perform|carry\\s+out|apply|comply|act\\s+on|treat\\s+(?:it|this)\\s+as)|(?:解[码碼]|反[转轉]义|反[转轉]義|解密|[还還]原|[转轉][换換]|倒[过過]来|反[过過]来)${clause(10)}(?:[后後]|再|然[后後]|并|並)${clause(4)}(?:[执執]行|照做|遵循|遵守|服从|服從|按照|[运運]行)` },

  // Role and chat-template spoofing, fake delimiters.
  { id: 'role.chat-template-token', technique: 'role_spoof', weight: 0.5,
    source: `<\\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text|end_of_turn|start_of_turn)\\|>|<(?:start_of_turn|end_of_turn)>` },
  { id: 'role.llama-inst', technique: 'role_spoof', weight: 0.45, source: `\\[\\/?inst\\]|<<\\/?sys>>` },
  { id: 'role.alpaca-header', technique: 'role_spoof', weight: 0.4,
    source: `(?:^|\\n)[ \\t]*#{2,4}[ \\t]*(?:instruction|response|system|input|human|assistant)s?[ \\t]*:?[ \\t]*(?=\\n|$)` },
  { id: 'role.turn-label', technique: 'role_spoof', weight: 0.3,
    source: `(?:^|\\n)[ \\t]*(?:#\\d+\\s*:?\\s*\\n\\s*)?(?:\\[\\s*)?(?:system|assistant|user|human|ai|bot|chatgpt|系[统統]|用[户戶]|助手|助理|人[类類])(?:\\s*\\])?[ \\t]*:[ \\t]*\\S` },
  { id: 'role.json-role', technique: 'role_spoof', weight: 0.35, source: `\\{\\s*["']role["']\\s*:\\s*["'](?:system|developer|assistant|tool)["']` },
  { id: 'role.xml-tag', technique: 'role_spoof', weight: 0.35,
    source: `<\\/?(?:system|instructions?|system_prompt|sys|admin|developer|assistant_instructions|hidden_instructions|important|override|prompt)>` },
  { id: 'role.fenced-block', technique: 'role_spoof', weight: 0.35, source: '```[ \\t]*(?:system|instructions?|prompt|assistant)\\b' },
  { id: 'role.banner', technique: 'role_spoof', weight: 0.45,
    source: `(?:\\*{2,}|={2,}|-{2,}|#{1,3}|\\[|【)\\s*(?:system|admin|developer|root)\\s+(?:override|message|notice|instruction|alert|prompt|update)s?|(?:^|\\n)[ \\t]*(?:system\\s+(?:message|notice|instruction)|系[统統](?:消息|指令|通知))\\s*:` },
  { id: 'role.tool-output', technique: 'role_spoof', weight: 0.35,
    source: `(?:^|\\n)[ \\t]*(?:tool\\s+(?:output|result|response)|function\\s+(?:output|result)|observation|工具返回|工具[输輸]出|函[数數]返回)\\s*:|\\{\\s*["'](?:tool|function_call|tool_calls|tool_call_id)["']\\s*:` },
  { id: 'delimiter.end-of-context', technique: 'delimiter_spoof', weight: 0.4,
    source: `(?:\\[|<|={2,}|-{2,}|#|\\*{2,}|【|\\()\\s*(?:end\\s+of\\s+(?:the\\s+)?(?:document|context|article|input|user\\s+input|data|content|page|email|search\\s+results?|tool\\s+output|untrusted\\s+content|text|excerpt|conversation|system\\s+prompt)|(?:document|context|input|content)\\s+ends?)\\s*(?:\\]|>|={2,}|-{2,}|#|\\*{2,}|】|\\))|<\\/(?:document|context|untrusted|search_results|tool_output|user_input|email|webpage|retrieved)>|(?:文档|文檔|上下文|[输輸]入)(?:到此)?(?:[结結]束)\\s*(?:\\]|】|-|=)` },
]);

/** Rules for text whose spaces an obfuscator removed ("i g n o r e a l l ..." read back as one word). */
export const COMPACT_RULES: Rule[] = compile([
  { id: 'obfuscated.compact-override', technique: 'instruction_override', weight: 0.8,
    source: alt(
      'ignor(?:e|ing)(?:all|any|every|your|the|of)*(?:previous|prior|earlier|above|preceding|original)(?:instructions?|prompts?|directives?|guidelines|rules)',
      'disregard(?:all|any|your|the)*(?:previous|prior|earlier|above)(?:instructions?|guidance|prompts?)',
      'forget(?:all|your|the)*(?:previous|prior)?(?:instructions|rules)',
      'systemprompt',
      'youarenow(?:an?)?(?:unrestricted|unfiltered|dan)',
    ) },
]);

/** Case-sensitive rules run on the original text: placeholders are recognisable by their capitals. */
export const RAW_RULES: Rule[] = compile(
  [
    { id: 'exfil.url-placeholder', technique: 'exfiltration', weight: 0.7,
      source: `(?:!\\[[^\\]\\n]{0,100}\\]\\(|<img\\b[^>]{0,200}?\\bsrc\\s*=\\s*["']?|\\b(?:src|href)\\s*=\\s*["']?|\\]\\()\\s*https?:\\/\\/[^\\s)"'<>]{1,300}?[?&][\\w.-]{1,40}=(?:(?:DATA|EMAIL|NOTES?|INFO|SECRETS?|TOKEN|KEYS?|PASSWORD|PASS|USER(?:NAME)?|NAME|CHAT|HISTORY|CONVO|CONVERSATION|MESSAGES?|CONTEXT|SUMMARY|QUERY|PAYLOAD|CONTENT|PROMPT|PII|ADDRESS|PHONE|ACCOUNT|COOKIES?|SESSION|[A-Z]{2,}_[A-Z_]{2,}|X{3,})|\\{\\{?[\\w .-]{1,40}\\}?\\}|\\$\\{?\\w{1,40}\\}?|<[\\w .-]{1,40}>|%[A-Z_]{2,40}%)(?=[&)"'\\s>]|$)` },
  ],
  'gm',
);

/** Keywords that, read backwards, betray text written in reverse to hide it. */
export const REVERSED_TEXT_HINT = /\b(?:erongi|snoitcurtsni|tpmorp|metsys|drageresid|drawrof|laever|suoiverp)\b|令指|略忽|词示提|视无|示指/;
/** Rot13 is only worth decoding when the text talks about it. */
export const ROT13_HINT = /\brot-?\s?13\b|\bcaesar\b|凯撒|凱撒/;
/** Letters spaced or dotted apart: "i g n o r e", "忽/略/之/前". */
export const SEPARATED_LETTERS = /(?:[a-z\u4e00-\u9fff][ \t.\-_/|*·•,:+~]{1,3}){5,}[a-z\u4e00-\u9fff]/g;
/** Words mixing leet digits into letters ("1gn0r3"), rewritten when the text has enough of them. */
export const LEET_WORD = /\b[a-z0-9]*[a-z][a-z0-9]*\b/g;
