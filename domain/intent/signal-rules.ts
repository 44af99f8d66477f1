import type { Intent } from '../../schemas/ingest.ts';

/**
 * 1 = a hint (a word that often, not always, means the intent: "or", "最新", "theorem");
 * 2 = a cue (usually means it: "what is", "怎么", "github");
 * 3 = an explicit phrasing (leaves little doubt: "vs", "what's new", "教程", "this week").
 * The strongest signal decides; equal strengths are settled by SPECIFICITY_ORDER.
 */
export type SignalStrength = 1 | 2 | 3;

/**
 * cue: the signal words are framing, removed when the topic is extracted for expansion;
 * content: the words are part of the topic ("install", "election", "theorem") and stay;
 * separator: a comparison joint ("vs", "还是", "faster than") at which the compared things are split.
 */
export type SignalRole = 'cue' | 'content' | 'separator';

export interface SignalRule {
  intent: Intent;
  /** The family of phrasings, as shown to a reader of `skrya classify`. */
  signal: string;
  strength: SignalStrength;
  /**
   * Matched against the normalised query (NFKC, lower case, typos corrected).
   * With capture groups, only the groups are framing (for "what does X mean" the X stays topic).
   */
  pattern: RegExp;
  role: SignalRole;
  /** Matched against the query with its letter case kept (acronyms), instead of the folded text. */
  caseSensitive: boolean;
}

function rule(intent: Intent, strength: SignalStrength, signal: string, pattern: RegExp, role: SignalRole = 'cue'): SignalRule {
  return { intent, strength, signal, pattern: new RegExp(pattern.source, 'gdu'), role, caseSensitive: false };
}

function casedRule(intent: Intent, strength: SignalStrength, signal: string, pattern: RegExp, role: SignalRole = 'cue'): SignalRule {
  return { ...rule(intent, strength, signal, pattern, role), caseSensitive: true };
}

// Words that usually close a comparison adjective: "faster than", "more reliable than" (not "rather than").
const COMPARATIVE_THAN = /\b(?!(?:rath|oth|wheth|eith|neith|ev|ov|und|aft|befor|howev)er\b)[a-z]+er than\b|\b(?:more|less) [a-z-]+ than\b|\bbetter than\b|\bworse than\b/;

// English verbs that, opening a query, ask for a procedure ("configure kafka ssl").
const IMPERATIVE_START = /^(?:please )?(?:install|uninstall|set ?up|configure|deploy|build|create|write|make|implement|fix|enable|disable|run|migrate|upgrade|integrate|connect|add|debug|optimi[sz]e|troubleshoot|convert|generate|host|train|fine-?tune|compile|containeri[sz]e|automate|speed up|cent(?:er|re)|publish|bake|cook|clean|reset|remove|import|export|schedule|secure|backup|back up|restore|mount|unlock|apply|renew|cancel|transfer|replace|edit|use)\b(?! cases?\b)/;

const CHINESE_COMPARATIVE = /谁(?:更)?(?:强|好|快|慢|贵|便宜|厉害|划算|高|低|大|小|多|少|稳|香|值)|更(?:强|好|快|慢|贵|便宜|厉害|划算|适合|稳定|流行|优秀|安全|省|值得)/;

/**
 * The signal table. English patterns use \b word boundaries; Chinese patterns have no word
 * boundaries, so they are written as whole phrases with look-arounds that exclude common
 * words sharing characters (文档数据库, 跟踪, 比赛).
 */
export const SIGNAL_RULES: readonly SignalRule[] = [
  // ── factual: what a thing is ─────────────────────────────────────────────────────────────
  rule('factual', 2, 'what is X', /\b(?:what'?s|what (?:is|are|was|were)|wat is)\b(?: (?:a|an|the)\b)?/),
  rule('factual', 3, 'what does X mean', /\b(what (?:does|do)) .+? (means?)\b/),
  rule('factual', 3, 'meaning of X', /\b(?:the )?meaning of\b|\bmeaning\b/),
  rule('factual', 3, 'X definition', /\b(?:definitions?|define[sd]?)\b(?: of)?/),
  rule('factual', 2, 'X explained', /\b(?:explain|explained|explanation of|explainer)\b/),
  rule('factual', 2, 'how does X work', /\b(how (?:does|do)) .+? (work)\b|\bhow .+? (works)\b/),
  rule('factual', 2, 'who/when fact', /\b(?:who (?:is|was|are|were|invented|created|founded|wrote|made|owns)|when (?:was|were|did)|where (?:is|was) .+? (?:located|from|headquartered))\b/),
  rule('factual', 2, 'how many / how much', /\bhow (?:many|much|long|big|old|tall|far(?! along)|fast|heavy|large|often)\b/),
  rule('factual', 1, 'why X', /\bwhy\b/),
  // "Can I make and sell Debian CDs?": whether something is allowed, possible or needed, answered yes or no, not
  // with steps (unless it also asks how: "…, and if so, how?").
  rule('factual', 2, 'can I X? (yes or no)', /^((?:can|could|may|must|should|shall|do) (?:i|we|one)|is it (?:possible|safe|necessary|legal|allowed|ok|okay)(?: to)?)\b(?!.*\bhow\b).+\?\s*$/),
  rule('factual', 2, '可以 X 吗', /^(?:我|我们)?(可以|能否|可否|能|必须|需要|应该|应当)(?!.*(?:怎么|如何)).+(吗)[？?]?\s*$/),
  rule('factual', 1, 'named concept (theorem, law, principle)', /\b(?:theorem|principle|paradox|law|lemma|conjecture|fallacy|effect|dilemma|hypothesis|equation)\b/, 'content'),
  casedRule('factual', 1, 'bare acronym (WAL in databases)', /^[A-Z][A-Z0-9]{1,5}s?(?: (?:in|for) [a-z][a-z -]*)?\??$/, 'content'),
  rule('factual', 3, '什么是 X', /什么是|啥是|什么叫|何谓|何为/),
  rule('factual', 2, 'X 是什么', /是(?:什么|啥)(?:东西|玩意儿?)?|是个啥/),
  rule('factual', 3, 'X 什么意思 / 定义', /是?(?:什么|啥)意思|含义|的定义|定义|是指什么|指的是什么/),
  rule('factual', 2, 'X 原理 / 概念', /原理|概念|本质/),
  rule('factual', 1, '为什么 X', /为什么|为啥|为何/),
  rule('factual', 2, 'X 是干嘛的 / 有什么用', /是干(?:嘛|什么)的|(?:是)?干什么用的|有(?:什么|啥)用(?!户)|作用是/),
  rule('factual', 2, '多少 / 谁发明', /多少|(?:有)?多(?:大|高|长|重|远|久|快)|哪(?:一)?年|谁(?:发明|创造|创立|提出|写)了?|是谁/),

  // ── status: where something stands now ───────────────────────────────────────────────────
  rule('status', 2, 'latest X', /\blatest\b/),
  rule('status', 3, "what's new in X", /\bwhat'?s new\b(?: (?:in|with|for))?|\bwhat is new\b(?: (?:in|with|for))?|\bwhats new\b/),
  rule('status', 3, "what's the status/situation", /\bwhat'?s the (?:situation|status|state|latest|progress|deal)\b(?: (?:of|with|on))?|\b(where (?:does|do)) .+? (stand)\b/),
  rule('status', 3, 'current state of X', /\b(?:current|present) (?:state|status|situation|progress)\b(?: of)?/),
  rule('status', 2, 'state of X', /\bstate of\b(?! the art)/),
  rule('status', 2, 'X status', /\bstatus\b(?! codes?\b)/),
  rule('status', 3, 'X progress', /\bprogress\b(?: (?:on|of|in))?/),
  rule('status', 3, 'how far along is X', /\bhow far along\b(?: (?:is|are))?/),
  rule('status', 3, 'how is X going', /\b(how(?:'s| is| are)) .+? (going|coming along|doing)\b/),
  rule('status', 3, 'X released yet', /\b(?:released|stable|stabili[sz]ed|available|supported|out|ready|done|merged|shipped|landed|fixed|launched) yet\b/),
  rule('status', 2, 'X yet?', /\byet\s*\??\s*$/),
  rule('status', 2, 'X released?', /\b(?:released|launched|out|available|stable|supported)\s*\?\s*$/),
  rule('status', 3, 'is X done / has X shipped', /^(is|are|has|have|did|was|were) .+? (done|finished|complete|completed|shipped|released|merged|stable|stabili[sz]ed|ready|out|available|landed|deprecated|removed|dead)\s*\??$/),
  rule('status', 3, 'where are we with X', /\b(where (?:are|is|do|does)) .+? (at|now|today|headed)\b|\bwhere are we\b|\bwhere (?:things|it) stands?\b/),
  rule('status', 2, 'X GA / beta / EOL', /\b(?:ga|general availability|beta|alpha|eol|end of life|lts|deprecated|deprecation|adoption)\b/, 'content'),
  rule('status', 1, 'a year (2025)', /\b20[1-3]\d\b/, 'content'),
  rule('status', 3, 'X still maintained', /\bstill (?:maintained|alive|supported|active|relevant|developed|worth it|worth learning|used|popular)\b|\b(is) .+? (dead)\b/),
  rule('status', 3, 'X release date', /\b(when (?:is|will|does)) .+? (release|come out|launch|ship|land)\b|\brelease date\b/),
  rule('status', 2, 'X roadmap / changelog', /\b(?:roadmap|changelog|release notes|what changed|changes in|new features)\b/),
  rule('status', 2, 'X update', /(?<!^)\bupdates?\b/),
  rule('status', 1, 'currently / nowadays', /\b(?:currently|nowadays|these days|as of now|right now)\b/),
  rule('status', 3, 'X 最新进展 / 现状', /最新进展|最新情况|最新状态|进展|进度|现状|近况|状况/),
  rule('status', 3, 'X 到哪一步了', /到(?:了)?哪一?步|到什么(?:程度|地步|阶段|水平)|(?:什么|哪个)阶段/),
  rule('status', 3, 'X 怎么样了', /(?:怎么样|如何|咋样)了/),
  rule('status', 3, 'X 发布了吗', /(?:发布|上线|推出|支持|稳定|合并|落地|量产|开源|出来|出)了(?:吗|没|没有)/),
  rule('status', 2, 'X 了吗', /了(?:吗|没有?)\s*[?]?\s*$/),
  rule('status', 3, 'X 有什么变化', /有(?:什么|哪些|啥)(?:变化|新|改进|更新)|更新了(?:什么|哪些|啥)|新特性|新功能|新变化/),
  rule('status', 2, 'X 最新', /最新(?:版本?)?/),
  rule('status', 2, 'X 更新 / 路线图', /更新|路线图|变化/),
  rule('status', 2, 'X 还在维护吗', /还(?:在)?(?:维护|更新|活跃)|还能用吗/),
  rule('status', 3, 'X 还有人用吗 / 过时了吗', /还有人用|还值得学|还值得用|过时了(?:吗|没)?|凉了(?:吗)?|死了吗/),
  rule('status', 1, '目前 / 现在', /目前|现在|当前|如今|眼下/),
  rule('status', 2, 'X 情况', /(?<!什么)情况(?!下)|普及率|落地/),

  // ── comparison: two or more things weighed ───────────────────────────────────────────────
  // "vs code" is an editor, not a comparison.
  rule('comparison', 3, 'X vs Y', /\bvs\b(?! ?code\b)\.?|\bversus\b|\bv\.s\./, 'separator'),
  rule('comparison', 3, 'X compared to Y', /\bcompared (?:to|with)\b|\bas opposed to\b/, 'separator'),
  rule('comparison', 3, 'X faster than Y', COMPARATIVE_THAN, 'separator'),
  rule('comparison', 3, 'difference between X and Y', /\b(?:the )?(?:differences?|differ|difference) (?:between|from)\b|\bdifferences?\b|\bdiffer(?:s|ent from)?\b|\bsimilarities\b/),
  rule('comparison', 3, 'compare X and Y', /\b(?:compare|comparing|comparison(?: of| between)?)\b/),
  rule('comparison', 3, 'pros and cons', /\bpros and cons\b(?: of)?|\btrade-?offs?\b(?: (?:of|between))?|\bhead[- ]to[- ]head\b|\bside by side\b/),
  rule('comparison', 3, 'which is better', /\bwhich\b(?: (?:one|is|are|should i|would you|to))?(?: \w+)? (?:better|best|faster|cheaper|easier|preferable|more \w+)\b/),
  rule('comparison', 3, 'should I use X or Y', /\b(?:should|do) (?:i|we) (?:use|learn|pick|choose|go with|buy|get|start with|switch to) .+? or\b/),
  rule('comparison', 2, 'which X', /\bwhich (?:one|is|are|should|would|to)\b/),
  rule('comparison', 3, 'choose between X and Y', /\b(?:choose|choosing|pick|picking|decide|deciding) between\b/),
  rule('comparison', 2, 'X alternatives', /\balternatives?\b(?: to)?/),
  rule('comparison', 1, 'X or Y', /\bor\b/, 'separator'),
  rule('comparison', 3, 'X 和 Y 区别 / 哪个好', /区别|差异|差别|异同|不同之处|有(?:何|什么|啥)不同|(?:有(?:何|什么|啥))?不一样|哪个好|哪个更|哪家好|优劣|优缺点|利弊/),
  rule('comparison', 3, 'X 对比 Y', /对比|相比于?|比起/, 'separator'),
  rule('comparison', 2, 'X 比较', /比较/),
  rule('comparison', 3, 'X 谁更强', CHINESE_COMPARATIVE),
  rule('comparison', 2, '哪个 X', /哪个|哪家|哪一个|选哪/),
  rule('comparison', 2, 'X 还是 Y', /还是/, 'separator'),
  rule('comparison', 1, 'X 比 Y', /(?<=[^\s对相无好])比(?![较赛分例特如率起重值])/, 'separator'),
  rule('comparison', 2, 'X 还是 Y 划算', /划算|值得买|更值/),
  rule('comparison', 1, 'X 和 Y', /(?<![总暖温缓柔中])和(?![平谐睦])|(?<![参给赋])与(?![会其])|跟(?![踪进随])/, 'separator'),

  // ── tutorial: how to do something ────────────────────────────────────────────────────────
  rule('tutorial', 3, 'how to X', /\bhow(?: to| 2| do i| do you| can i| should i| would i| do we| can we| could i)\b|\bhowto\b/),
  rule('tutorial', 3, 'X tutorial', /\btutorials?\b|\bwalk-?through\b|\bstep[- ]by[- ]step\b|\bcrash course\b|\bhands-on\b/),
  rule('tutorial', 3, 'getting started with X', /\b(?:getting started|get started|quick ?start|beginner'?s guide)\b(?: (?:with|on|in))?/),
  rule('tutorial', 2, 'X guide', /\bguides?\b(?! to the galaxy)|\bbest practices?\b|\btips\b(?: (?:for|on))?/),
  rule('tutorial', 2, 'X for beginners', /\b(?:for beginners|beginners?|for dummies|from scratch)\b/),
  // "machine learning", "deep learning": the name of a field, not a wish to learn.
  rule('tutorial', 2, 'learn X', /\blearn\b|(?<!\b(?:machine|deep|reinforcement|federated|transfer|supervised|unsupervised|self-supervised|contrastive|representation|statistical|online|continual|few-shot|zero-shot|in-context|meta|e)[ -])\blearning\b(?! rates?\b)|\bcourses?\b|\bexamples?\b/),
  rule('tutorial', 2, 'X not working', /\bnot working\b|\bdoesn'?t work\b|\bfailed to\b|\btroubleshoot(?:ing)?\b/, 'content'),
  rule('tutorial', 1, 'X error', /\berrors?\b/, 'content'),
  rule('tutorial', 2, 'imperative: install/configure X', IMPERATIVE_START, 'content'),
  rule('tutorial', 3, 'X 教程', /教程|指南|攻略|手把手|零基础|从零开始|一步一?步|步骤|使用方法|用法|怎么用|如何使用|上手|入门到精通/),
  rule('tutorial', 2, 'X 入门', /入门|学习|学会|示例|例子|实例|实战|报错|最佳实践/),
  rule('tutorial', 2, '怎么 X', /怎么(?!样|回事|了)|如何(?!了)|怎样(?!了)|咋(?!样)/),
  rule('tutorial', 1, 'X 安装 / 设置', /安装|配置|设置|开启|关闭|启用|禁用|修改|更改|部署|搭建|实现|编写|制作|升级|卸载|迁移|备份|恢复|编译|加固|校验|检验|修复|上传|定制|^使用(?!场景|率|量|情况)/, 'content'),
  // A manual's task heading opens with what one does: "Using lintian", "Backing Up with rsync" (not "Tunneling" alone).
  rule('tutorial', 1, 'doing X (a task heading)', /^(?!(?:something|anything|everything|nothing|during|morning|evening|spring|string|thing)\b)[a-z]{2,}ing\b(?= \S)/, 'content'),

  // ── news: what happened recently ─────────────────────────────────────────────────────────
  rule('news', 3, 'X news', /\bnews\b|\bheadlines\b|\bbreaking\b/),
  rule('news', 3, 'X this week', /\b(?:this (?:week|morning|evening)|today|tonight|yesterday|last (?:night|week|weekend)|past (?:24 hours|week))\b(?:'s)?/),
  rule('news', 2, 'X this month', /\b(?:this month|past few days)\b/),
  rule('news', 3, 'X announcement', /\bannounce(?:s|d|ment|ments)?\b|\bunveil(?:s|ed)?\b/),
  rule('news', 3, 'what happened at X', /\bwhat(?:'s| is)? happen(?:ed|ing)\b(?: (?:at|to|in|with))?|\bwhats happening\b/),
  rule('news', 2, 'event: conference, election, outage', /\b(?:conference|keynote|summit|elections?|outage|acquisition|acquires|acquired|layoffs?|lawsuit|ipo|earnings|scores|launch event|funding round|verdict|ceasefire|earthquake)\b/, 'content'),
  rule('news', 1, 'X results', /\bresults\b/, 'content'),
  // "X released" states an event; "X released?" asks about a state (a status signal below).
  rule('news', 2, 'X released / X down', /\b(?:released|launched|unveiled)\s*$|\b(?:down|hacked|breached)\s*\??\s*$/),
  rule('news', 1, 'recent X', /\brecent(?:ly)?\b/),
  rule('news', 3, 'X 新闻', /新闻|快讯|要闻|头条|资讯|热点|(?<!发送|推送|接收)消息(?!队列|中间件|系统|推送|机制|总线|传递|格式|模型)/),
  rule('news', 3, 'X weekly roundup', /\b(?:round-?up|recap|this week in)\b/),
  // "daily backup", "weekly standup" are schedules; only a digest or a trailing "daily" is news.
  rule('news', 2, 'X weekly', /\b(?:weekly|daily) (?:news|digest|briefing|roundup|round-up|recap|report|newsletter|updates?)\b|\b(?:weekly|daily)$/),
  rule('news', 3, '本周 X', /本周|这周|这一周|上周|今天|今日|昨天|昨日|昨晚|今晚|今早|刚刚|近日|本月|这几天/),
  rule('news', 3, 'X 发布了什么', /(?:发布|公布|宣布)了?(?:什么|哪些|啥)|发生了(?:什么|啥)|出了什么事|怎么回事|宣布/),
  rule('news', 2, '事件: 会议 / 选举 / 比赛', /发布会|大会|峰会|会议|选举|大选|比赛|赛果|比分|地震|事故|宕机|收购|裁员|起诉|融资|财报/, 'content'),
  rule('news', 1, '最近 X', /最近|近期/),

  // ── resource: a specific artefact to open ────────────────────────────────────────────────
  rule('resource', 3, 'X official site / docs', /\bofficial (?:website|site|docs|documentation|page|repo|repository|download|homepage|guide)\b|\bhomepage\b/),
  rule('resource', 2, 'official X', /\bofficial\b/),
  rule('resource', 3, 'X docs', /\bdocs\b|\bdocumentation\b|\bapi reference\b|\breference (?:docs|manual)\b|\bman ?page\b/),
  rule('resource', 2, 'X manual / spec', /\bmanual\b|\bspec(?:s|ification)?\b|\brfc ?\d*\b/),
  rule('resource', 2, 'X GitHub', /(?<!\b(?:on|in|from|to|with|at|via|into|using|use) )\bgit(?:hub|lab)\b(?=\s*(?:$|\?|repo|repository|page|link|project|地址|仓库|源码|项目|链接))/),
  rule('resource', 3, 'X repo / source code', /\brepo(?:sitory)?\b|\bsource code\b|\bsource\b$/),
  rule('resource', 3, 'download X', /\bdownloads?\b|\binstallers?\b|\bbinar(?:y|ies)\b|\bisos?\b(?= image| file|$)/),
  rule('resource', 3, 'X pdf / paper', /\bpdf\b|\barxiv\b|\bwhite ?paper\b|\bebook\b/),
  rule('resource', 2, 'X paper / dataset / link', /\bpapers?\b|\bdatasets?\b|\bcheat ?sheets?\b|\bwebsite\b|\blinks?\b|\burl\b|\btemplates?\b|\bboilerplate\b/),
  rule('resource', 3, 'X 官网 / 文档', /官网|官方网站|官方文档|文档(?!数据库|型)|手册|仓库|源码|源代码|下载|安装包|论文|白皮书|数据集|电子书/),
  rule('resource', 2, '官方 X', /官方|网址|链接|入口|主页|规范/),
  rule('resource', 1, 'X 地址', /地址/),
  rule('resource', 2, 'where can I find X', /\bwhere (?:can|do|could|should) (?:i|we|you|one) (?:find|get|obtain|download|ask)\b|\bwhere to (?:find|get|obtain|download|ask)\b|\bhow can .+? be (?:obtained|downloaded)\b/),
  rule('resource', 2, '哪里可以找到 X', /(?:在|到|从)?(?:哪里|哪儿|何处)(?:可以|能|才能)?(?:找到|获得|获取|下载|求助|提问)/),

  // ── exploratory: the broad picture ───────────────────────────────────────────────────────
  rule('exploratory', 3, 'X ecosystem / landscape', /\becosystems?\b|\blandscape\b|\bdeep[- ]dive\b(?: into)?|\bin[- ]depth\b|\b(?:everything|all) about\b/),
  rule('exploratory', 3, 'learn more about X', /\blearn more about\b/),
  rule('exploratory', 3, 'the science behind X', /\bthe (?:science|story|history|economics|psychology|physics|math|maths|philosophy|politics|engineering|technology|idea) (?:behind|of)\b/),
  rule('exploratory', 2, 'about X', /^(?:tell me )?about\b|\btell me about\b/),
  rule('exploratory', 2, 'X overview', /\boverview\b(?: of)?|\bintroduction to\b|\bintro to\b|\bhistory of\b|\bfuture of\b|\btrends?\b(?: in)?|\buse cases\b(?: (?:of|for))?|\bapplications of\b|\bstate of the art\b|\bcommunity\b/),
  rule('exploratory', 3, '深入了解 X / X 生态', /深入(?:了解|理解|研究|浅出)?|深度(?:解析|分析|剖析|了解)?|全面(?:了解|解析|分析)|生态(?:系统|圈)?|产业链|格局|版图|全景|全貌|综述|的一切|发展史|发展历程|来龙去脉/),
  rule('exploratory', 2, '关于 X / X 概览', /关于|概览|概述|简介|详解|一文读懂|前景|未来|趋势|历史|演进|社区|应用场景|用途|有哪些/),
  rule('exploratory', 1, 'X 相关', /相关/),
];

/**
 * English signal words worth correcting when misspelt ("electoin results", "tutoral"): the
 * vocabulary the typo corrector may map a typed word onto.
 */
export const SIGNAL_VOCABULARY: ReadonlySet<string> = new Set([
  'what', 'definition', 'meaning', 'explained', 'difference', 'differences', 'compare', 'comparison', 'versus',
  'tradeoffs', 'alternatives', 'better', 'tutorial', 'tutorials', 'walkthrough', 'beginners', 'getting', 'started',
  'install', 'configure', 'guide', 'latest', 'status', 'progress', 'roadmap', 'changelog', 'released', 'stabilized',
  'update', 'updates', 'current', 'situation', 'news', 'headlines', 'announcement', 'announced', 'yesterday', 'today',
  'tonight', 'happened', 'election', 'elections', 'conference', 'keynote', 'results', 'official', 'documentation',
  'download', 'installer', 'repository', 'github', 'website', 'ecosystem', 'landscape', 'overview', 'history',
]);
