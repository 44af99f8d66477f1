/**
 * Deterministic generator of Skrya's own labelled intent queries (written for it): 7 intents ×
 * English, Chinese and mixed, short and long, with and without cue words, with typos, including the
 * shapes rules miss (bare comparisons, imperative how-tos, single-attribute look-ups, resource
 * nouns, Chinese news verbs, status forms) and words that contain a cue by accident.
 * A family is one phrasing idea; families are split train/validation/test by declaration order
 * within their intent, and a query is built from one family only.
 */
import type { Intent } from '../../../schemas/ingest.ts';
import { createRandom, fill, fnv1a, pick, splitOfIndex, type Random, type Split } from '../../learned/random.ts';
import { family, TRAIN_LONG_EN, TRAIN_LONG_ZH, TRAIN_POOL_ADDITIONS, WIDENING_QUERY_FAMILIES, type QueryFamily } from './train-families.ts';

export interface GeneratedQuery {
  id: string;
  query: string;
  lang: 'en' | 'zh' | 'mixed';
  intent: Intent;
  split: Split;
  family: string;
}

const POOLS: Record<string, readonly string[]> = {
  x: ['kafka', 'postgres', 'redis', 'rust', 'go', 'python 3.13', 'kubernetes', 'terraform', 'react', 'vue', 'deno', 'bun', 'node.js', 'nginx', 'docker', 'ollama', 'llama.cpp', 'pytorch', 'vite', 'zig', 'sqlite', 'clickhouse', 'elasticsearch', 'rocketmq', 'pulsar', 'electron', 'tauri', 'django', 'spring boot', 'mysql', 'vs code', 'neovim', 'grafana', 'prometheus', 'istio', 'flink', 'duckdb', 'hnsw', 'raft', 'wasm'],
  y: ['rabbitmq', 'mongodb', 'memcached', 'c++', 'java', 'pulumi', 'opentofu', 'svelte', 'angular', 'caddy', 'podman', 'vllm', 'jax', 'webpack', 'esbuild', 'mariadb', 'cassandra', 'nats', 'qt', 'flask', 'fastapi', 'helix', 'loki', 'linkerd', 'spark', 'polars', 'faiss', 'paxos'],
  zx: ['卡夫卡', '向量数据库', '大模型', '容器', '微服务', '消息队列', '鸿蒙', '小程序', '数据湖', '边缘计算', '零信任', '量子计算'],
  task: ['add swap', 'set up ssh keys', 'rotate logs', 'enable https', 'migrate the database', 'write a dockerfile', 'configure a reverse proxy', 'deploy to a vps', 'profile memory usage', 'set up ci', 'back up volumes', 'tune gc'],
  ztask: ['加 swap', '配置 ssh 密钥', '切割日志', '开启 https', '迁移数据库', '写 dockerfile', '配置反向代理', '部署到服务器', '排查内存泄漏', '搭建 CI', '备份数据卷', '调优 GC'],
  attr: ['default port', 'max message size', 'license', 'default timeout', 'config file location', 'minimum ram', 'acronym', 'release date of 1.0', 'max connections', 'default password'],
  zattr: ['默认端口号', '最大消息大小', '开源协议', '默认超时时间', '配置文件路径', '最低内存要求', '全称', '1.0 发布时间', '最大连接数', '默认密码'],
  res: ['releases page', 'docs', 'github repo', 'download link', 'cheat sheet', 'official site', 'changelog', 'api reference', 'docker image', 'pdf manual'],
  zres: ['镜像', '下载地址', '官方文档', 'GitHub 仓库', '速查表', '官网', '更新日志', 'API 文档', 'docker 镜像', '中文手册'],
  org: ['openai', 'google', 'apple', 'microsoft', 'nvidia', 'the eu', 'meta', 'tesla', 'amazon'],
  zorg: ['华为', '小米', '阿里', '腾讯', '字节', '工信部', '比亚迪', '百度', '苹果'],
  ver: ['1.0', '2.0', '3', '5.0', 'v4', '2026'],
  ctx: ['for a small team', 'on ubuntu 24.04', 'in production', 'for a side project', 'at work', 'on a raspberry pi'],
  zctx: ['我们公司', '小团队', '生产环境', '个人项目', '在树莓派上', '新手'],
};

const F = family;

export const QUERY_FAMILIES: QueryFamily[] = [
  // comparison
  F('cmp-vs', 'comparison', ['{x} vs {y}', '{x} versus {y} {ctx}', '{x} or {y} which is better'], ['{zx}和{zx}哪个好', '{x} 和 {y} 哪个好', '{x} 对比 {y}'], ['{x} vs {y} 怎么选', '{x} 还是 {y}']),
  F('cmp-bare', 'comparison', ['{x} {y}', '{x} {y} {y}', '{x} {y} for {ctx}'], ['{x} {y} 选型', '{x} {y} 区别', '{x} {y} 优缺点'], ['{x} {y} 选型', '{x} {y} 哪个']),
  F('cmp-difference', 'comparison', ['difference between {x} and {y}', 'how does {x} differ from {y}', 'what separates {x} from {y}'], ['{x}与{y}有什么不同', '{x}跟{y}差在哪', '{zx}和{zx}的区别是什么'], ['{x} 跟 {y} difference', '{x} 和 {y} 的 differences']),
  F('cmp-should', 'comparison', ['should i use {x} or {y} {ctx}', 'is {x} better than {y}', 'pick {x} or {y}'], ['{zctx}该用{x}还是{y}', '{x}比{y}好吗', '选{x}还是{y}'], ['{zctx} 用 {x} or {y}', 'should i 选 {x} 还是 {y}']),
  F('cmp-alt', 'comparison', ['{x} alternatives compared', '{x} compared to {y} and {y}', 'benchmark {x} against {y}'], ['{x}的替代品对比', '{x}、{y}、{y}横向对比', '{x}和{y}性能对比'], ['{x} 替代品 comparison', '{x} vs {y} 性能 benchmark']),
  F('cmp-pros', 'comparison', ['{x} pros and cons vs {y}', 'tradeoffs {x} {y}', 'when to choose {y} over {x}'], ['{x}相比{y}的优劣', '什么时候选{y}而不是{x}', '{x}{y}怎么取舍'], ['{x} {y} tradeoffs 分析', '{y} over {x} 什么场景']),
  // tutorial
  F('tut-howto', 'tutorial', ['how to {task} on {x}', 'how do i {task} with {x}', 'how can i {task}'], ['如何在{x}上{ztask}', '{x}怎么{ztask}', '怎样{ztask}'], ['how to 在 {x} 上{ztask}', '{x} 怎么 {task}']),
  F('tut-imperative', 'tutorial', ['{task} {x}', '{task} on {x} {ctx}', '{x} {task} step by step'], ['给 {x} {ztask}', '{x} {ztask}', '{zctx}{ztask}'], ['给 {x} {task}', '{x} {ztask} steps']),
  F('tut-guide', 'tutorial', ['{x} tutorial for beginners', '{x} getting started guide', 'learn {x} in a weekend'], ['{x}入门教程', '{x}新手指南', '从零学{x}'], ['{x} 入门 tutorial', '{x} beginner 教程']),
  F('tut-example', 'tutorial', ['{x} example of {task}', 'sample config to {task} in {x}', '{x} walkthrough {task}'], ['{x}{ztask}示例', '{x}{ztask}的配置例子', '手把手教你{ztask}'], ['{x} {ztask} example', '{x} sample 配置']),
  F('tut-fix', 'tutorial', ['fix {x} permission denied', 'resolve {x} out of memory error', 'troubleshoot {x} slow startup'], ['{x}报错 permission denied 怎么解决', '{x}内存溢出怎么办', '{x}启动慢排查'], ['{x} OOM 怎么解决', 'fix {x} 启动失败']),
  F('tut-steps', 'tutorial', ['steps to {task}', 'best way to {task} in {x}', 'setting up {x} {ctx}'], ['{ztask}的步骤', '{x}最佳实践：{ztask}', '{zctx}搭建{x}'], ['{ztask} best practice', 'setup {x} 流程']),
  // factual
  F('fact-what', 'factual', ['what is {x}', 'whats {x}', 'what does {x} mean'], ['{x}是什么', '什么是{zx}', '{zx}是啥'], ['what is {zx}', '{x} 是什么 concept']),
  F('fact-attr', 'factual', ['{x} {attr}', '{attr} of {x}', '{x} {attr}?'], ['{x} {zattr}', '{x}的{zattr}', '{x}{zattr}是多少'], ['{x} {zattr}', '{x} {attr} 是多少']),
  F('fact-explain', 'factual', ['explain {x}', 'how does {x} work', '{x} explained simply'], ['{x}原理', '{x}是怎么工作的', '通俗解释{zx}'], ['{x} 原理 explained', 'explain {zx}']),
  F('fact-define', 'factual', ['define {x}', '{x} meaning', '{x} definition machine learning'], ['{zx}的定义', '{x}的含义', '{zx}指的是什么'], ['{x} definition 中文', '{zx} meaning']),
  F('fact-who', 'factual', ['who created {x}', 'who maintains {x}', 'when was {x} first released'], ['{x}是谁开发的', '{x}由谁维护', '{x}最早什么时候发布的'], ['{x} 作者是谁', 'who made {x} 呢']),
  F('fact-why', 'factual', ['why is {x} single threaded', 'why does {x} use {y}', 'is {x} open source'], ['{x}为什么是单线程', '{x}为什么用{y}', '{x}开源吗'], ['{x} 为什么 single threaded', 'is {x} 开源']),
  // status
  F('stat-latest', 'status', ['latest {x} version', 'current version of {x}', '{x} latest release'], ['{x}最新版本', '{x}现在是什么版本', '{x}最新版是多少'], ['{x} 最新 version', 'latest {x} 版本号']),
  F('stat-eta', 'status', ['{x} {ver} eta', 'when will {x} {ver} ship', '{x} {ver} release date'], ['{x} {ver} 什么时候发布', '{x} {ver} 发布时间', '{x} {ver} 还要多久'], ['{x} {ver} eta 有吗', '{x} {ver} 什么时候 release']),
  F('stat-merged', 'status', ['{x} pr for {task} merged?', 'is the {x} fix merged yet', 'did {x} land the patch'], ['{x}那个 PR 合并了吗', '{x}的补丁合进去了没', '{x}修复上了吗'], ['{x} 那个 PR merged 了吗', '{x} fix 合了没']),
  F('stat-changes', 'status', ['{x} whats new', 'what changed in {x} {ver}', '{x} {ver} changes'], ['{x} {ver} 改了啥', '{x}新版本有什么变化', '{x}更新了什么'], ['{x} {ver} 改了啥', '{x} new features 有哪些']),
  F('stat-support', 'status', ['is {x} still maintained', 'is {x} deprecated', 'does {x} support {y} yet'], ['{x}还在维护吗', '{x}被弃用了吗', '{x}现在支持{y}了吗'], ['{x} 还 maintained 吗', '{x} deprecated 了吗']),
  F('stat-down', 'status', ['is {x} down', '{x} outage today', '{x} status right now'], ['{x}挂了吗', '{x}今天宕机了吗', '{x}现在能用吗'], ['{x} down 了吗', '{x} 服务 status']),
  // news
  F('news-latest', 'news', ['{x} news', 'latest {org} news', '{org} news this week'], ['{org}最新消息', '{zorg}最新新闻', '{zorg}本周动态'], ['{zorg} 最新 news', '{org} 新闻']),
  F('news-verbs-zh', 'news', ['{org} launches new chip', '{org} fined by regulators', '{org} goes on sale'], ['{zorg}新品上线', '{zorg}手机开售', '{zorg}被罚款'], ['{zorg} 上线 new model', '{org} 被罚款']),
  F('news-events', 'news', ['{org} announces layoffs', '{org} acquires startup', '{org} keynote announcements'], ['{zorg}宣布裁员', '{zorg}收购初创公司', '{zorg}发布会'], ['{zorg} 发布会 announcements', '{org} 收购']),
  F('news-today', 'news', ['what happened with {org} today', '{org} headlines', 'breaking {org}'], ['今天{zorg}发生了什么', '{zorg}头条', '{zorg}突发'], ['{org} 今天 headlines', 'breaking {zorg}']),
  F('news-policy', 'news', ['{org} ai act ruling', 'new {org} regulation on ai', '{org} lawsuit update'], ['{zorg}新规出台', '{zorg}监管新政', '{zorg}诉讼进展'], ['{org} 新规 ai', '{zorg} lawsuit 进展']),
  F('news-daily', 'news', ['daily {x} roundup', '{x} weekly news digest', 'recent {x} announcements'], ['{x}日报', '{x}周报', '{x}近期动态'], ['{x} 日报 daily', 'recent {x} 动态']),
  // resource
  F('res-noun', 'resource', ['{x} {res}', '{x} official {res}', '{res} for {x}'], ['{x} {zres}', '清华 {x} 镜像', '{x}的{zres}'], ['{x} {zres}', '{x} {res} 地址']),
  F('res-download', 'resource', ['download {x}', '{x} installer', 'where to get {x} binaries'], ['{x}下载', '{x}安装包', '哪里下载{x}'], ['{x} 下载 link', 'download {x} 安装包']),
  F('res-list', 'resource', ['awesome {x} list', '{x} datasets', 'free {x} courses'], ['{x}资源合集', '{x}数据集', '{x}免费课程'], ['awesome {x} 合集', '{x} datasets 下载']),
  F('res-template', 'resource', ['{x} config template', '{x} boilerplate repo', '{x} docker compose file'], ['{x}配置模板', '{x}脚手架', '{x} docker compose 文件'], ['{x} boilerplate 模板', '{x} 配置 template']),
  F('res-api', 'resource', ['{x} api docs', '{x} sdk', '{x} client library'], ['{x} API 文档', '{x} SDK', '{x}客户端库'], ['{x} api 文档', '{x} sdk 下载']),
  F('res-book', 'resource', ['{x} book pdf', '{x} paper', '{x} slides'], ['{x}电子书', '{x}论文', '{x}课件'], ['{x} 论文 pdf', '{x} book 电子版']),
  // exploratory
  F('exp-topic', 'exploratory', ['{x}', '{x} ecosystem', '{x} in 2026'], ['{zx}', '{zx}发展', '{zx}行业'], ['{zx} ecosystem', '{x} 生态']),
  F('exp-ideas', 'exploratory', ['ideas for {x} projects', 'interesting uses of {x}', 'things to build with {x}'], ['{x}能做什么', '{x}有哪些玩法', '{zx}的应用场景'], ['{x} 能做哪些 projects', 'ideas {zx}']),
  F('exp-overview', 'exploratory', ['overview of {x} landscape', 'state of {zx}', 'trends in {x}'], ['{zx}现状', '{zx}趋势', '{zx}全景'], ['{zx} trends', '{x} landscape 概览']),
  F('exp-opinion', 'exploratory', ['thoughts on {x}', 'is {x} worth learning', 'future of {x}'], ['怎么看{zx}', '{x}值得学吗', '{zx}的未来'], ['{x} 值得 learn 吗', 'future of {zx}']),
  F('exp-research', 'exploratory', ['research on {x} {y}', '{x} and {y} together', '{x} for {ctx} experience'], ['{zx}研究', '{x}结合{y}', '{zctx}用{x}的经验'], ['{x} 结合 {y} experience', '{zx} research']),
  F('exp-broad', 'exploratory', ['everything about {x}', '{x} deep dive', 'learn about {zx}'], ['关于{zx}的一切', '深入了解{x}', '{zx}科普'], ['{x} deep dive 合集', 'about {zx}']),
];

/**
 * Families written after the split was fixed, only to widen what the model learns from: accuracy
 * on unseen phrasing grows with the number of families seen (scripts/diagnose-generalization.ts),
 * and each intent had three train families. Train-only by construction (never validation or test);
 * written from the intents' definitions and the shapes named in issue 13, not from test queries.
 * The first round is here; the second, much larger one (with its own slot fillers) is in
 * train-families.ts.
 */
const FIRST_TRAIN_ONLY_FAMILIES: QueryFamily[] = [
  F('cmp-replace', 'comparison', ['is it worth moving from {x} to {y}', 'replace {x} with {y}?', '{y} instead of {x} {ctx}'], ['从{x}换到{y}值得吗', '用{y}替换{x}好不好', '{y}能不能取代{x}'], ['{x} 换成 {y} worth it 吗', '{y} 取代 {x}?']),
  F('cmp-faster', 'comparison', ['fastest among {x} {y} {y}', 'which is lighter {x} or {y}', '{x} {y} numbers side by side'], ['{x}、{y}谁更快', '{x}跟{y}哪个更省内存', '{x} {y} 性能差多少'], ['{x} {y} 谁更快 benchmark', 'which 更轻量 {x} {y}']),
  F('tut-configure', 'tutorial', ['configure {x} {ctx}', '{x} settings to {task}', 'enable tls in {x}'], ['{x}怎么配置才能{ztask}', '{x}配置{ztask}', '{x} 开启 tls'], ['{x} 配置 tls', 'configure {x} 来{ztask}']),
  F('tut-command', 'tutorial', ['{x} command to {task}', 'cli flag for {task} in {x}', 'one-liner to {task}'], ['{x}用什么命令{ztask}', '{ztask}的命令', '一行命令{ztask}'], ['{x} 命令 {task}', '{ztask} command']),
  F('fact-quantity', 'factual', ['how many connections can {x} handle', 'how much memory does {x} need', 'how big can a {x} message be'], ['{x}最多支持多少个连接', '{x}需要多少内存', '{x}单条消息最大多大'], ['{x} 最多 how many connections', 'how much 内存 {x} 需要']),
  F('fact-yesno', 'factual', ['can {x} run on arm', 'is {x} written in c', 'does {x} need a jvm'], ['{x}能在arm上跑吗', '{x}是用什么语言写的', '{x}依赖jvm吗'], ['{x} 能跑在 arm 上吗', '{x} 是 written in 什么语言']),
  F('stat-roadmap', 'status', ['{x} roadmap {ver}', 'what is planned for {x} {ver}', '{x} next release plans'], ['{x} {ver} 路线图', '{x}下个版本计划', '{x} {ver} 规划'], ['{x} {ver} roadmap 进展', '{x} next release 计划']),
  F('stat-lifecycle', 'status', ['{x} {ver} end of life date', 'is {x} {ver} stable yet', 'how far along is {x} {ver}'], ['{x} {ver} 什么时候停止支持', '{x} {ver} 稳定了吗', '{x} {ver} 进展如何'], ['{x} {ver} EOL 时间', 'is {x} {ver} 稳定了']),
  F('news-earnings', 'news', ['{org} stock drops after earnings', '{org} quarterly results', '{org} revenue report'], ['{zorg}财报', '{zorg}股价大跌', '{zorg}季度营收'], ['{zorg} 财报 earnings', '{org} 股价']),
  F('news-executives', 'news', ['{org} ceo steps down', '{org} hires new cto', '{org} executive shakeup'], ['{zorg}高管变动', '{zorg} CEO 辞职', '{zorg}换帅'], ['{org} CEO 辞职', '{zorg} 高管 shakeup']),
  F('res-tools', 'resource', ['{x} gui client', '{x} vscode extension', '{x} grafana dashboard json'], ['{x}图形化客户端', '{x}的 vscode 插件', '{x}监控面板模板'], ['{x} gui 客户端', '{x} vscode 插件 推荐']),
  F('res-playground', 'resource', ['{x} online playground', '{x} sandbox to try', '{x} demo instance'], ['{x}在线体验地址', '{x}在线试用', '{x}演示环境'], ['{x} online playground 地址', '{x} 在线 demo']),
  F('exp-adoption', 'exploratory', ['companies using {x}', '{x} adoption in industry', 'who runs {x} at scale'], ['哪些公司在用{x}', '{x}在行业里的采用情况', '{zx}落地案例'], ['哪些公司 use {x}', '{x} adoption 情况']),
  F('exp-challenges', 'exploratory', ['challenges of {zx}', 'open problems in {x}', 'limitations of {x}'], ['{zx}面临的挑战', '{x}有哪些局限', '{zx}的难点'], ['{zx} challenges', '{x} 的 limitations']),
];

export const TRAIN_ONLY_QUERY_FAMILIES: QueryFamily[] = [...FIRST_TRAIN_ONLY_FAMILIES, ...WIDENING_QUERY_FAMILIES];

/** Train queries draw from the original pools plus the added fillers; validation and test keep the original pools. */
const TRAIN_POOLS: Record<string, readonly string[]> = Object.fromEntries(
  [...new Set([...Object.keys(POOLS), ...Object.keys(TRAIN_POOL_ADDITIONS)])].map((slot) => [slot, [...new Set([...(POOLS[slot] ?? []), ...(TRAIN_POOL_ADDITIONS[slot] ?? [])])]]),
);

const TYPO_RATE = 0.15;

function typo(random: Random, query: string): string {
  const words = query.split(' ');
  const candidates = words.map((word, index) => [word, index] as const).filter(([word]) => /^[a-z]{4,}$/.test(word));
  if (candidates.length === 0) return query;
  const [word, index] = pick(random, candidates);
  const at = 1 + Math.floor(random() * (word.length - 2));
  const roll = random();
  const changed = roll < 0.33 ? word.slice(0, at) + word.slice(at + 1) : roll < 0.66 ? word.slice(0, at) + (word[at + 1] ?? '') + (word[at] ?? '') + word.slice(at + 2) : word.slice(0, at) + (word[at] ?? '') + word.slice(at);
  words[index] = changed;
  return words.join(' ');
}

const LONG_EN = ['i need to know {q} for my team', '{q} please, looking for something recent and reliable', 'quick question: {q}', '{q}, ideally with sources'];
const LONG_ZH = ['想了解一下{q}', '请问{q}', '{q}，求靠谱的资料', '{zctx}问一下：{q}'];

export const QUERY_SEED = 20261202;
export const QUERY_COUNTS: Record<Split, number> = { train: 15000, validation: 600, test: 600 };

const FAMILY_SPLITS: Map<QueryFamily, Split> = (() => {
  const seen = new Map<Intent, number>();
  const splits = new Map<QueryFamily, Split>();
  for (const family of QUERY_FAMILIES) {
    const index = seen.get(family.intent) ?? 0;
    seen.set(family.intent, index + 1);
    splits.set(family, splitOfIndex(index));
  }
  for (const family of TRAIN_ONLY_QUERY_FAMILIES) splits.set(family, 'train');
  return splits;
})();

export function generateIntentQueries(seed = QUERY_SEED): GeneratedQuery[] {
  const rows: GeneratedQuery[] = [];
  for (const split of ['train', 'validation', 'test'] as const) {
    // One stream a split: families added to train never change the validation or test queries.
    const random = createRandom(seed ^ fnv1a(split));
    const families = [...FAMILY_SPLITS].filter(([, value]) => value === split).map(([family]) => family);
    const seen = new Set<string>();
    let attempts = 0;
    while (rows.filter((row) => row.split === split).length < QUERY_COUNTS[split] && attempts++ < QUERY_COUNTS[split] * 20) {
      const family = pick(random, families);
      const roll = random();
      const lang: GeneratedQuery['lang'] = roll < 0.4 ? 'en' : roll < 0.8 ? 'zh' : 'mixed';
      const pools = split === 'train' ? TRAIN_POOLS : POOLS;
      const longForms = split === 'train' ? (lang === 'en' ? [...LONG_EN, ...TRAIN_LONG_EN] : [...LONG_ZH, ...TRAIN_LONG_ZH]) : lang === 'en' ? LONG_EN : LONG_ZH;
      let query = fill(random, pick(random, family[lang]), pools);
      if (random() < 0.2) query = fill(random, pick(random, longForms), { ...pools, q: [query] });
      if (lang !== 'zh' && random() < TYPO_RATE) query = typo(random, query);
      if (random() < 0.1) query = query.replace(/^./, (first) => first.toUpperCase());
      if (seen.has(query)) continue;
      seen.add(query);
      rows.push({ id: `gen-int-${String(rows.length + 1).padStart(5, '0')}`, query, lang, intent: family.intent, split, family: family.id });
    }
  }
  return rows;
}
