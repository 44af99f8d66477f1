/**
 * Train-only phrasing families and slot fillers, written to widen what the intent model learns
 * from: scripts/diagnose-generalization.ts showed the model fits seen families (0.96) but not
 * unseen ones (0.74), and that accuracy on unseen phrasing climbs with the number of families and
 * the variety of the words around the cue. Written from the intents' definitions (spec 001) and
 * the shapes issue 13 names (bare comparisons, imperative how-tos, single-attribute look-ups,
 * resource nouns, Chinese news verbs, status forms, words that contain a cue by accident), not
 * from validation or test queries. Everything here reaches the train split only: the validation
 * and test families keep the original slot pools (generate-queries.ts), so they never change.
 */
import type { Intent } from '../../../schemas/ingest.ts';

export interface QueryFamily {
  id: string;
  intent: Intent;
  en: string[];
  zh: string[];
  mixed: string[];
}

export const family = (id: string, intent: Intent, en: string[], zh: string[], mixed: string[]): QueryFamily => ({ id, intent, en, zh, mixed });
const F = family;

/**
 * Slot fillers added for train families (merged with the original pools): technology far beyond
 * one stack, consumer products, people, places, everyday tasks and topics outside software, and
 * words that hold a cue by accident (machine learning, electron, vs code, leader election, 周报).
 */
export const TRAIN_POOL_ADDITIONS: Record<string, readonly string[]> = {
  x: [
    'aws lambda', 'cloudflare workers', 'supabase', 'firebase', 'vercel', 'next.js', 'nuxt', 'remix', 'astro', 'tailwind', 'jquery', 'typescript', 'kotlin', 'swift', 'flutter',
    'react native', 'unity', 'godot', 'unreal engine', 'blender', 'figma', 'notion', 'obsidian', 'slack', 'discord', 'chatgpt', 'claude', 'gemini', 'llama 3', 'mistral', 'qwen',
    'deepseek', 'stable diffusion', 'whisper', 'langchain', 'llamaindex', 'transformers', 'onnx', 'tensorflow', 'keras', 'scikit-learn', 'pandas', 'numpy', 'jupyter', 'airflow',
    'dbt', 'snowflake', 'bigquery', 'databricks', 'debezium', 'minio', 'ceph', 'zfs', 'btrfs', 'systemd', 'bash', 'tmux', 'git', 'github actions', 'gitlab ci', 'jenkins', 'argo cd',
    'helm', 'openshift', 'nomad', 'consul', 'vault', 'etcd', 'envoy', 'traefik', 'haproxy', 'wireguard', 'tailscale', 'home assistant', 'proxmox', 'truenas', 'arch linux', 'ubuntu',
    'debian', 'fedora', 'windows 11', 'macos', 'android', 'harmonyos', 'raspberry pi 5', 'arduino', 'esp32', 'jetson orin', 'graphql', 'grpc', 'websocket', 'http/3', 'quic',
    'oauth2', 'jwt', 'passkeys', 'tls 1.3', 'ipv6', 'bgp', 'crdt', 'bloom filter', 'b-tree', 'lsm tree', 'transformer', 'lora', 'rag', 'kv cache', 'flash attention', 'quantization',
    'machine learning', 'deep learning', 'reinforcement learning', 'electron', 'vs code', 'intellij', 'xcode', 'cursor', 'copilot', 'ebpf', 'io_uring', 'tokio', 'axum', 'gin',
    'laravel', 'rails', 'phoenix', 'elixir', 'erlang', 'haskell', 'ocaml', 'scala', 'julia', 'cobol', 'verilog', 'risc-v', 'cuda', 'rocm', 'vulkan', 'webgpu', 'openresty', 'tidb',
    'oceanbase', 'doris', 'starrocks', 'milvus', 'qdrant', 'weaviate', 'pgvector', 'kafka connect', 'redpanda', 'temporal', 'celery', 'sidekiq', 'cilium', 'calico', 'k3s', 'minikube',
  ],
  y: ['gitea', 'sveltekit', 'solidjs', 'htmx', 'gradle', 'maven', 'cmake', 'bazel', 'poetry', 'uv', 'pnpm', 'yarn', 'mercurial', 'zookeeper', 'kraft', 'ray', 'dask', 'trino', 'presto', 'hive', 'iceberg', 'delta lake', 'hudi', 'chroma', 'pinecone', 'opensearch', 'meilisearch', 'typesense', 'keydb', 'dragonfly', 'valkey', 'couchdb', 'scylladb', 'cockroachdb', 'yugabyte', 'neon', 'planetscale'],
  zx: [
    '人工智能', '机器学习', '深度学习', '大语言模型', '云原生', '服务网格', '区块链', '元宇宙', '自动驾驶', '新能源车', '芯片', '光刻机', '国产数据库', '信创', '低代码', '分布式事务',
    '搜索引擎', '推荐系统', '知识图谱', '向量检索', '多模态', '智能体', '具身智能', '算力', '数据中台', '可观测性', '混沌工程', '持续集成', '灰度发布', '负载均衡', '缓存', '分库分表',
    '数据仓库', '实时计算', '流处理', '联邦学习', '隐私计算', '操作系统', '编译器', '虚拟机', '容器编排', '无服务器', '开源', '机器人', '卫星互联网', '固态电池',
  ],
  zxen: ['ai safety', 'quantum computing', 'edge computing', 'web3', 'open source', 'platform engineering', 'observability', 'vector databases', 'autonomous driving', 'robotics', 'biotech', 'climate tech', 'space tech', 'chip design', 'developer tools', 'low-code', 'digital health', 'fintech', 'the creator economy', 'remote work', 'ai agents', 'rag systems', 'open weights models', 'local llms', 'privacy tech', 'solid state batteries'],
  zp: ['飞书', '钉钉', '企业微信', '微信小程序', '抖音', 'B站', '淘宝', '支付宝', '高德地图', '文心一言', '通义千问', 'Kimi', '豆包', 'DeepSeek', '鸿蒙 NEXT', '统信 UOS', 'OceanBase', 'TiDB', '达梦数据库', '华为云', '阿里云', '腾讯云', '火山引擎', '宝塔面板'],
  thing: ['sourdough bread', 'cold brew', 'heat pumps', 'solar panels', 'index funds', 'a roth ira', 'mortgage rates', 'credit scores', 'marathon training', 'intermittent fasting', 'the keto diet', 'vitamin d', 'electric bikes', 'ev charging', 'home insulation', 'houseplants', 'chess openings', 'film photography', 'drones', '3d printing', 'mechanical keyboards', 'air fryers', 'espresso machines', 'robot vacuums', 'the james webb telescope', 'black holes', 'crispr', 'mrna vaccines', 'el nino', 'the olympics', 'formula 1', 'inflation', 'bitcoin', 'the housing market', 'the four day week', 'daily standups', 'news apps'],
  zthing: ['酸面包', '手冲咖啡', '空气炸锅', '扫地机器人', '新能源汽车', '充电桩', '光伏', '储能', '房贷利率', '公积金', '个税', '社保', '养老金', '基金定投', '黄金', '比特币', '考研', '高考', '雅思', '驾照', '马拉松', '减脂', '睡眠', '高血压', '疫苗', '世界杯', '奥运会', '春运', '签证', '电动自行车', '3D打印', '无人机', '机械键盘', '降噪耳机', '房价', '碳中和', '台风'],
  task: ['add a user', 'free up disk space', 'reset the admin password', 'expose a port', 'run it as a service', 'set environment variables', 'enable gzip', 'limit memory', 'run a cron job', 'clone a repo', 'squash commits', 'undo the last commit', 'add a ssl cert', 'mount a volume', 'schedule a daily backup', 'set up replication', 'shard a table', 'index a column', 'stream logs', 'debug a memory leak', 'cross compile for arm', 'publish a package', 'write a unit test', 'fine tune a model', 'quantize a model', 'serve a model', 'load a csv', 'parse json', 'call an api', 'hot reload'],
  ztask: ['加用户', '清理磁盘', '重置管理员密码', '开放端口', '设置开机自启', '设置环境变量', '开启 gzip', '限制内存', '定时执行任务', '克隆仓库', '合并提交', '撤销上次提交', '装 SSL 证书', '挂载目录', '做主从复制', '分表', '加索引', '查看日志', '交叉编译', '发布 npm 包', '写单元测试', '微调模型', '量化模型', '部署大模型', '导入 csv', '解析 json', '调接口', '装驱动', '换国内源', '配置代理'],
  gtask: ['bake sourdough', 'renew a passport', 'file taxes', 'change a tire', 'unclog a drain', 'lower cholesterol', 'train for a 10k', 'fix a leaky faucet', 'make cold brew', 'apply for a visa', 'set up a budget', 'clean a cast iron pan', 'grow tomatoes', 'jump start a car', 'negotiate a salary', 'write a cover letter', 'remove a wine stain', 'repot a plant', 'tie a tie', 'back up an iphone'],
  zgtask: ['办护照', '报个税', '换轮胎', '疏通下水道', '降血压', '练马拉松', '学游泳', '修水龙头', '做酸奶', '办签证', '记账', '养多肉', '开公司', '写简历', '去除油渍', '申请公积金贷款', '办居住证', '考驾照', '备份手机', '煮米饭'],
  attr: ['file extension', 'maximum file size', 'default username', 'storage limit', 'rate limit', 'default charset', 'max key length', 'block size', 'tls port', 'supported platforms', 'mascot', 'default page size', 'max payload', 'creator', 'initial release year', 'latest lts number', 'min python version', 'default data directory'],
  zattr: ['文件后缀', '默认用户名', '最大文件大小', '限流规则', '默认编码', '支持的平台', '开发语言', '吉祥物', '默认分页大小', '最大并发数', '英文缩写', '默认数据目录', '作者', '首次发布年份', '默认字符集', '最大key长度'],
  res: ['repo link', 'source code', 'homepage', 'wiki', 'faq', 'sample dataset', 'helm chart', 'terraform module', 'starter template', 'logo svg', 'awesome list', 'discord server', 'mailing list archive', 'community forum', 'download mirror', 'apt repo', 'pypi page', 'npm page', 'docker hub page', 'man page', 'style guide', 'whitepaper', 'spec pdf', 'model weights', 'colab notebook', 'example repo', 'status page', 'release notes', 'install script'],
  zres: ['镜像源', '国内镜像', '源码', '离线安装包', '中文文档', '论文原文', '白皮书', '数据集', '模型权重', '开源地址', '项目主页', '官方论坛', '交流群', '下载链接', '网盘链接', 'pdf 电子版', '思维导图', '面试题合集', '规范文档', '配置示例文件', 'Windows 安装包', 'Mac 版下载', '周报模板'],
  org: ['anthropic', 'deepmind', 'mistral', 'hugging face', 'github', 'netflix', 'spotify', 'uber', 'airbnb', 'stripe', 'shopify', 'intel', 'amd', 'arm', 'qualcomm', 'tsmc', 'samsung', 'sony', 'nintendo', 'valve', 'reddit', 'the fda', 'the ftc', 'the sec', 'the uk government', 'japan', 'india', 'nasa', 'spacex', 'boeing', 'toyota', 'volkswagen', 'the linux foundation', 'cncf', 'mozilla', 'the rust foundation'],
  zorg: ['京东', '美团', '拼多多', '网易', '快手', '蔚来', '理想', '小鹏', '宁德时代', '中芯国际', '大疆', '联想', 'vivo', 'OPPO', '荣耀', '中兴', '网信办', '央行', '证监会', '市场监管总局', '教育部', '深圳', '上海', '欧盟', '英伟达', '微软', '谷歌', 'OpenAI', 'DeepSeek', '月之暗面', '智谱', '科大讯飞'],
  person: ['sam altman', 'elon musk', 'jensen huang', 'linus torvalds', 'satya nadella', 'tim cook', 'mark zuckerberg', 'sundar pichai', 'dario amodei', 'demis hassabis', 'guido van rossum', 'andrej karpathy', 'lisa su'],
  zperson: ['雷军', '马化腾', '任正非', '马云', '张一鸣', '李彦宏', '黄仁勋', '余承东', '王传福', '梁文锋', '刘强东', '王兴', '周鸿祎'],
  product: ['iphone 17', 'pixel 10', 'galaxy s26', 'vision pro 2', 'gpt-5', 'gemini 3', 'claude 5', 'llama 5', 'rtx 5090', 'the m5 macbook', 'ps6', 'switch 2', 'cybertruck', 'model y', 'quest 4', 'kindle scribe', 'steam deck 2'],
  zproduct: ['小米 SU7', '华为 Mate 80', '鸿蒙 6', '问界 M9', 'iPhone 17', '小米 16', 'Mate XT', 'DeepSeek V4', 'Kimi K2', '通义千问 3', '理想 i8', '蔚来 ET9', '比亚迪海鸥', 'Switch 2', '大疆 Mini 5'],
  ver: ['1.0 final', '2.0 beta', 'lts', 'v2', '19', '25.04', '0.14', '3.0 rc1', '2027', 'next', '4.0', '1.x'],
  ctx: ['for a startup', 'on windows', 'on a mac', 'on aws', 'with docker', 'in a homelab', 'for a school project', 'on kubernetes', 'for 10k users', 'on a cheap vps', 'offline', 'behind a proxy'],
  zctx: ['我们组', '公司内网', '学校项目', '本地', '云上', '毕业设计', '外包项目', '创业公司', '内网环境', 'Windows 上', 'Mac 上', '阿里云上'],
  usecase: ['a chat app', 'logging', 'a blog', 'real-time analytics', 'a mobile game', 'machine learning pipelines', 'a crud api', 'embedded devices', 'a data lake', 'event sourcing', 'search', 'a startup mvp'],
  zuse: ['做日志', '做博客', '实时分析', '做游戏', '做推荐', '写爬虫', '做后台管理', '嵌入式', '做搜索', '做 IM', '高并发', '做数据分析'],
  errmsg: ['connection refused', 'permission denied', 'segmentation fault', 'oom killed', 'certificate verify failed', 'port already in use', 'module not found', 'no space left on device', 'too many open files', 'ssl handshake failed', 'exit code 137', 'dependency conflict'],
  zerr: ['连不上', '启动失败', '卡死', '闪退', '内存爆了', 'CPU 100%', '中文乱码', '磁盘满了', '证书过期', '端口被占用', '一直重启', '很慢'],
  dish: ['pad thai', 'banana bread', 'ramen', 'carbonara', 'dumplings', 'kimchi', 'pancakes', 'chili', 'fried rice', 'focaccia'],
  zdish: ['红烧肉', '宫保鸡丁', '饺子', '酸菜鱼', '蛋炒饭', '麻婆豆腐', '可乐鸡翅', '番茄炒蛋', '糖醋排骨', '凉皮'],
  skill: ['sql', 'touch typing', 'public speaking', 'system design', 'leetcode', 'chess', 'guitar', 'japanese', 'drawing', 'algorithms', 'negotiation'],
  zskill: ['英语口语', '写作', '算法', 'Python', '吉他', '素描', '游泳', '日语', '打字', '演讲', '做饭'],
  acr: ['hnsw', 'raft', 'crdt', 'grpc', 'mtls', 'oidc', 'sre', 'slo', 'cidr', 'nat', 'vpc', 'iops', 'qps', 'ocr', 'rlhf', 'moe', 'gguf', 'npu', 'cdc', 'etl', 'wal', 'mvcc'],
  term: ['idempotency', 'backpressure', 'eventual consistency', 'tail latency', 'sharding', 'a monad', 'a closure', 'write amplification', 'zero copy', 'copy on write', 'p99', 'two phase commit', 'exactly once', 'leader election', 'consensus', 'a memory barrier', 'tokenization'],
  zterm: ['幂等', '背压', '最终一致性', '长尾延迟', '分片', '闭包', '写放大', '零拷贝', '写时复制', '两阶段提交', '精确一次', '选主', '共识', '内存屏障', '分词', '脑裂'],
  feature: ['transactions', 'ssl', 'ipv6', 'arm64', 'hot reload', 'multi-tenancy', 'replication', 'sharding', 'generics', 'async io', 'gpu offload', 'full text search'],
  zfeature: ['事务', '集群', '中文分词', '热更新', '主从复制', '分片', '断点续传', '多租户', '泛型', 'GPU 加速', '全文检索'],
  os: ['apple silicon', 'windows arm', 'freebsd', 'risc-v', 'harmonyos', 'python 3.13', 'node 24', 'java 21', 'ios 18', 'wayland'],
  place: ['tokyo', 'berlin', 'london', 'new york', 'singapore', 'paris', 'sydney', 'toronto', 'seoul', 'dubai'],
  zplace: ['北京', '上海', '深圳', '杭州', '成都', '广州', '香港', '东京', '新加坡', '西安'],
  country: ['france', 'brazil', 'japan', 'germany', 'india', 'mexico', 'south korea', 'kenya', 'canada', 'argentina'],
  zcountry: ['法国', '巴西', '日本', '德国', '印度', '墨西哥', '韩国', '肯尼亚', '加拿大', '阿根廷'],
  substance: ['water', 'ethanol', 'olive oil', 'mercury', 'nitrogen'],
  zsubstance: ['水', '酒精', '橄榄油', '水银', '液氮'],
  natural: ['rainbows', 'hurricanes', 'earthquakes', 'tides', 'auroras', 'volcanoes', 'thunderstorms'],
  znatural: ['彩虹', '台风', '地震', '潮汐', '极光', '雾霾', '厄尔尼诺'],
  event: ['wwdc', 'google i/o', 'ces', 'mwc', 're:invent', 'kubecon', 'computex', 'the world cup final', 'the super bowl', 'wimbledon', 'the g20 summit', 'the oscars'],
  zevent: ['世界杯决赛', '春晚', '双十一', '618', '两会', 'WWDC', '华为开发者大会', '云栖大会', '世界人工智能大会', '进博会'],
  team: ['the lakers', 'real madrid', 'arsenal', 'the yankees', 'the warriors', 'team liquid'],
  zteam: ['国足', '湖人', '皇马', '广东队', '中国女排', '曼联'],
  gov: ['the eu', 'the us', 'california', 'the uk', 'china', 'the fcc', 'brussels'],
  zgov: ['工信部', '网信办', '欧盟', '美国', '央行', '国务院', '市场监管总局', '北京市'],
  money: ['$2 billion', '$500m', '$10 billion', '$40m'],
  zmoney: ['百亿', '10 亿美元', '千亿', '5000 万'],
  num: ['1234', '4521', '18807', '92', '311', '7002'],
  site: ['清华', '阿里云', '中科大', '华为云', '腾讯', '网易', 'tuna', 'ustc', '豆瓣'],
  pkgeco: ['pypi', 'npm', 'maven', 'docker hub', 'homebrew', 'conda', 'cargo', 'go proxy', 'ubuntu', 'huggingface'],
  filetype: ['yaml', 'dockerfile', 'json schema', 'csv', '.env', 'makefile', 'helm values', 'systemd unit', 'k8s manifest'],
  model: ['llama 3 8b', 'qwen2.5 7b', 'mistral 7b', 'deepseek r1', 'whisper large', 'sdxl', 'bge-m3', 'phi-3', 'glm-4'],
  doc: ['resume', 'invoice', 'nda', 'lease agreement', 'cover letter', 'meeting notes', 'project proposal', 'weekly report'],
  zdoc: ['简历', '发票', '劳动合同', '周报', '请假条', '租房合同', '述职报告', '日报'],
  asset: ['bitcoin', 'gold', 'the dollar', 'nvidia stock', 'eth', 'oil', 'the yen'],
  zasset: ['黄金', '比特币', '美元汇率', '茅台股价', '油价', '房价', '猪肉价格'],
  domain: ['healthcare', 'education', 'finance', 'journalism', 'gaming', 'manufacturing', 'farming', 'law'],
  zdomain: ['医疗', '教育', '金融', '媒体', '游戏', '制造业', '农业', '法律'],
  claim: ['agi is near', 'ai will replace coders', 'the bubble will pop', 'open source is winning'],
};

/** Extra long-form wrappers for train queries ({q} is the short query). */
export const TRAIN_LONG_EN = ['hey, {q}', '{q} thanks in advance', 'does anyone know {q}', 'asking for a friend: {q}', '{q} (asking {ctx})', 'so {q}', '{q}??', 'ok dumb question, {q}'];
export const TRAIN_LONG_ZH = ['求助：{q}', '{q}，谢谢', '各位大佬，{q}', '有人知道{q}吗', '{q}？在线等', '小白提问，{q}', '{q}啊', '那个{q}'];

export const WIDENING_QUERY_FAMILIES: QueryFamily[] = [
  // ── comparison ──
  F('cmp-three', 'comparison', ['{x} {y} {y}', '{x} / {y} / {y}', '{x}, {y} or {y}'], ['{x} {y} {y} 怎么选', '{x}、{y}、{y}', '{zx} 选 {x} {y}'], ['{x} {y} {y} 选哪个', '{x}/{y} 选型建议']),
  F('cmp-slash', 'comparison', ['{x} / {y}', '{x} or {y}?', '{x} vs. {y} {ctx}'], ['{x}/{y}', '{x} 或 {y}', '{x}或者{y}？'], ['{x} / {y} 哪个', '{x} or {y} 呢']),
  F('cmp-usecase', 'comparison', ['is {x} or {y} better for {usecase}', '{x} or {y} for {usecase}', 'for {usecase}: {x} {y}'], ['{zuse}用{x}还是{y}', '{zuse}选{x}好还是{y}好', '{x}和{y}哪个适合{zuse}'], ['{usecase} 用 {x} 还是 {y}', '{x} or {y} 适合 {zuse}']),
  F('cmp-goods', 'comparison', ['{product} or {product}', '{product} vs {product} camera', 'is {product} worth it over {product}'], ['{zproduct}和{zproduct}选哪个', '{zproduct}对比{zproduct}', '{zthing}和{zthing}选哪个'], ['{product} 和 {product} 选哪个', '{zproduct} vs {product}']),
  F('cmp-same', 'comparison', ['is {x} the same as {y}', '{x} same as {y}?', 'are {x} and {y} the same thing'], ['{x}和{y}是一回事吗', '{x}跟{y}一样吗', '{zx}和{zx}是一个东西吗'], ['{x} 和 {y} 是 same thing 吗', '{x} = {y}?']),
  F('cmp-metric', 'comparison', ['{x} {y} latency', '{x} vs {y} memory footprint', 'throughput {x} {y} {y}'], ['{x} {y} 吞吐量', '{x}跟{y}内存占用', '{x} {y} 启动速度'], ['{x} {y} latency 差距', '{x} {y} 内存 footprint']),
  F('cmp-torn', 'comparison', ['{x} or {y} for a beginner', 'go with {x} or {y}', 'torn between {x} and {y}'], ['纠结{x}和{y}', '{x}和{y}二选一', '{x}{y}选一个'], ['纠结 {x} 和 {y}', '{x} {y} 二选一 help']),
  F('cmp-price', 'comparison', ['is {x} cheaper than {y}', '{x} cost vs {y} cost', 'pricing {x} {y}'], ['{x}比{y}便宜吗', '{x}和{y}价格', '{zproduct}{zproduct}价格差多少'], ['{x} 和 {y} pricing', '{x} 比 {y} cheap 吗']),
  F('cmp-strengths', 'comparison', ['what does {y} do that {x} cant', '{x} {y} strengths and weaknesses', 'where {y} beats {x}'], ['{y}有什么{x}没有的', '{y}能做到{x}做不到的吗', '{x}和{y}各自擅长什么'], ['{y} 有什么 {x} 没有的 feature', '{x} {y} 各自 strengths']),
  F('cmp-story', 'comparison', ['we run {x} {ctx} and are evaluating {y} too, how do they stack up', 'need to decide between {x} and {y} for {usecase} this quarter', 'my boss wants {y} but i prefer {x}, which makes sense'], ['我们{zctx}现在用{x}，在考虑换{y}，两者差距大吗', '老板想用{y}，我觉得{x}更合适，怎么权衡', '{zuse}场景下{x}和{y}分别表现如何'], ['我们 {zctx} 用 {x}，{y} 会不会 better', '{usecase} 场景 {x} {y} 怎么取舍']),
  F('cmp-life', 'comparison', ['renting vs buying in {place}', '{place} or {place} to live', '{thing} or {thing}'], ['{zplace}和{zplace}哪里生活成本低', '租房还是买房', '{zthing}和{zthing}哪个更适合新手'], ['{zplace} or {zplace} 定居', '{thing} 还是 {thing}']),
  F('cmp-matchup', 'comparison', ['{x} {y} feature matrix', 'how {x} stacks up against {y}', '{x} beats {y}?'], ['{x} {y} 功能矩阵', '{x}打得过{y}吗', '{x}能打{y}吗'], ['{x} {y} feature 矩阵', '{x} 能打 {y} 吗']),
  F('cmp-pk', 'comparison', ['{x} vrs {y}', '{x} versus {y} versus {y}', '{x} v {y}'], ['{x}vs{y}', '{x}PK{y}', '{x} pk {y}'], ['{x} pk {y} 结果', '{x} VS {y} 哪个强']),
  // ── tutorial ──
  F('tut-bare', 'tutorial', ['{task}', '{task} {ctx}', '{task} in {x}'], ['{ztask}', '{ztask}{zctx}', '{x} 里{ztask}'], ['{ztask} on {x}', '{task} 在 {x}']),
  F('tut-life', 'tutorial', ['{gtask}', 'how to {gtask}', 'easiest way to {gtask}'], ['{zgtask}', '怎么{zgtask}', '{zgtask}流程'], ['{zgtask} 流程 step', 'how to {zgtask}']),
  F('tut-need', 'tutorial', ['i need to {task} on {x}', 'trying to {task}, where do i start', 'want to {task} {ctx}'], ['想{ztask}该怎么做', '需要{ztask}，从哪开始', '我想在{x}上{ztask}'], ['想 {task}，从哪开始', 'need to {ztask}']),
  F('tut-error', 'tutorial', ['{x} {errmsg}', 'getting {errmsg} in {x}', '{errmsg} when starting {x}'], ['{x} 报 {errmsg}', '{x}出现{errmsg}', '{x}一直{zerr}'], ['{x} {errmsg} 怎么办', '{x} 老是 {zerr} help']),
  F('tut-upgrade', 'tutorial', ['upgrade {x} to {ver}', 'migrate from {x} to {y}', 'move my data from {x} to {y}'], ['{x}升级到{ver}', '从{x}迁移到{y}', '把数据从{x}导到{y}'], ['{x} upgrade 到 {ver}', 'migrate {x} 到 {y}']),
  F('tut-integrate', 'tutorial', ['use {x} with {y}', 'connect {x} to {y}', '{x} + {y} integration'], ['{x}对接{y}', '{x}集成{y}', '{x}怎么连{y}'], ['{x} 对接 {y}', '{x} 接入 {y} sdk']),
  F('tut-recipe', 'tutorial', ['recipe for {dish}', '{dish} recipe easy', 'make {dish} at home'], ['{zdish}做法', '{zdish}怎么做好吃', '家常{zdish}'], ['{zdish} recipe', '{dish} 做法']),
  F('tut-speedup', 'tutorial', ['make {x} faster', 'speed up {x} builds', 'reduce {x} memory'], ['{x}怎么提速', '{x}调优', '让{x}跑得更快'], ['{x} 性能 tuning', 'make {x} 更快']),
  F('tut-automate', 'tutorial', ['automate {task} with {x}', 'cron job to {task}', 'script to {task}'], ['用{x}自动{ztask}', '写个脚本{ztask}', '定时{ztask}'], ['用 {x} 自动化 {task}', 'script 自动 {ztask}']),
  F('tut-way', 'tutorial', ['can i {task} without {y}', 'is there a way to {task} in {x}', 'any way to {task}?'], ['有办法{ztask}吗', '能不能不用{y}{ztask}', '{x}可以{ztask}吗'], ['有办法 {task} 吗', '{x} 能不能 {ztask}']),
  F('tut-story', 'tutorial', ['i am new to {x} and want to {task}, what should i do first', 'our team needs to {task} {ctx} before friday, walk me through it', 'tried to {task} but it keeps failing, what am i missing'], ['刚接触{x}，想{ztask}，第一步做什么', '{zctx}下周要{ztask}，求详细流程', '试了好几次{ztask}都失败，哪里不对'], ['刚接触 {x}，想 {task}', '{ztask} 一直 fail，怎么弄']),
  F('tut-skill', 'tutorial', ['get better at {skill}', 'practice plan for {skill}', 'teach myself {skill}'], ['自学{zskill}', '{zskill}怎么练', '{zskill}提高方法'], ['自学 {skill}', '{zskill} 练习 plan']),
  F('tut-setup', 'tutorial', ['new {x} install checklist', 'first things to do after installing {x}', 'initial setup of {x}'], ['{x}装完之后要做什么', '{x}初始化设置', '新装{x}必做的几件事'], ['{x} 装完 first steps', '{x} 初始 setup']),
  F('tut-slang', 'tutorial', ['hwo to {task}', 'how too {task} on {x}', 'pls help {task}'], ['咋{ztask}', '{ztask}咋弄', '{x}咋{ztask}'], ['咋 {task}', '{x} 咋 {ztask}']),
  // ── factual ──
  F('fact-attr-q', 'factual', ["what's the {attr} for {x}", '{x} {attr} value', '{attr} in {x} is'], ['{x}{zattr}是什么', '{x} {zattr} 多少', '{x}{zattr}在哪'], ['{x} 的 {attr}', '{attr} {x} 是多少']),
  F('fact-spec', 'factual', ['{product} battery capacity', '{product} weight', '{product} screen size'], ['{zproduct}电池容量', '{zproduct}多重', '{zproduct}屏幕尺寸'], ['{zproduct} battery 多大', '{product} 重量']),
  F('fact-general', 'factual', ['capital of {country}', 'boiling point of {substance}', '{country} population'], ['{zcountry}首都', '{zsubstance}的沸点', '{zcountry}人口'], ['{country} capital 是哪', '{zsubstance} 沸点']),
  F('fact-acronym', 'factual', ['{acr} stands for', '{acr} full form', '{acr} abbreviation'], ['{acr}全称', '{acr}是什么的缩写', '{acr}代表什么'], ['{acr} 全称 full name', '{acr} 缩写 meaning']),
  F('fact-person', 'factual', ['who is {person}', '{person} age', '{person} net worth'], ['{zperson}是谁', '{zperson}多大了', '{zperson}身价'], ['{person} 是谁', '{zperson} net worth']),
  F('fact-origin', 'factual', ['when did {x} come out', 'year {x} was released', 'first version of {x}'], ['{x}哪年出的', '{x}第一版是哪一年', '{x}诞生于哪一年'], ['{x} 哪年 released', '{x} first version 哪年']),
  F('fact-inside', 'factual', ['how {x} stores data', 'how {x} handles {term}', '{x} internals'], ['{x}底层怎么存数据', '{x}是如何实现{zterm}的', '{x}内部机制'], ['{x} 怎么 handle {term}', '{x} internal 机制']),
  F('fact-supports', 'factual', ['does {x} support {feature}', 'is {x} thread safe', 'is {x} free'], ['{x}支持{zfeature}吗', '{x}是线程安全的吗', '{x}免费吗'], ['{x} 支持 {feature} 吗', '{x} 是 free 的吗']),
  F('fact-place', 'factual', ['{place} time zone', 'distance from {place} to {place}', 'population of {place}'], ['{zplace}人口多少', '{zplace}属于哪个时区', '{zplace}到{zplace}多远'], ['{zplace} population', '{place} 时区']),
  F('fact-term', 'factual', ['what {term} refers to', '{term} in plain english', '{term} eli5'], ['{zterm}通俗讲是啥', '{zterm}指什么', '{zterm}这个词什么意思'], ['{zterm} eli5', '{term} 用大白话讲']),
  F('fact-where', 'factual', ['where does {x} store its config', 'where is the {x} data directory', 'which port does {x} listen on'], ['{x}的数据目录在哪', '{x}日志存在哪里', '{x}监听哪个端口'], ['{x} 数据目录 在哪', '{x} listen 哪个 port']),
  F('fact-nature', 'factual', ['why is the sky blue', 'how do {natural} form', 'what causes {natural}'], ['{znatural}是怎么形成的', '为什么会有{znatural}', '{znatural}的成因'], ['{natural} 成因', 'what causes {znatural}']),
  F('fact-heard', 'factual', ['i keep hearing about {x} at work, what exactly is it', 'my manager mentioned {term}, what does that actually mean', 'in one sentence what does {x} do'], ['同事老提{zx}，这到底是个什么东西', '面试被问到{zterm}，它具体指什么', '一句话说清楚{x}是干嘛的'], ['同事说的 {term} 到底是啥', '一句话 explain {x}']),
  F('fact-kind', 'factual', ['is {x} a database', 'is {x} a language or a framework', 'is {y} based on {x}'], ['{x}算数据库吗', '{x}是语言还是框架', '{y}是基于{x}的吗'], ['{x} 是 framework 吗', '{y} based on {x} 吗']),
  // ── status ──
  F('stat-when', 'status', ['{x} {ver} when?', '{x} {ver} timeline', 'expected date for {x} {ver}'], ['{x} {ver} 啥时候出', '{x} {ver} 出了没', '{x} {ver} 预计什么时候'], ['{x} {ver} 啥时候 ship', '{x} {ver} timeline 有吗']),
  F('stat-pr', 'status', ['{x} pull request {num}', 'did {x} accept the {feature} pr', '{x} {feature} rfc accepted?'], ['{x} 的 {zfeature} 提案通过了吗', '{x} #{num} 合并没', '{x} {zfeature} 那个 issue 处理了吗'], ['{x} #{num} merged 没', '{x} {feature} rfc 通过了吗']),
  F('stat-out', 'status', ['is {x} {ver} out', '{x} {ver} out yet', 'can i use {x} {ver} already'], ['{x} {ver} 出了吗', '{x} {ver} 能用了吗', '{x} {ver} 正式版发了没'], ['{x} {ver} out 了吗', '{x} {ver} 可以 use 了吗']),
  F('stat-doing', 'status', ['where is {x} at', 'how is {x} doing these days', '{x} momentum'], ['{x}现在发展得怎么样', '{x}这两年怎么样了', '{x}还火吗'], ['{x} 现在 how is it', '{x} 最近 momentum']),
  F('stat-service', 'status', ['{x} api errors right now', 'anyone else seeing {x} timeouts', 'is {x} having issues'], ['{x}是不是崩了', '{x}现在访问不了', '{x}打不开了'], ['{x} 是不是 down', '{x} api 报错 right now']),
  F('stat-platform', 'status', ['does {x} work on {os} now', '{x} {os} support status', '{x} compatible with {os} yet'], ['{x}现在支持{os}了吗', '{x}适配{os}了没', '{x}在{os}上能用了吗'], ['{x} support {os} 了吗', '{x} 适配 {os} status']),
  F('stat-breaking', 'status', ['{x} changes since {ver}', 'what broke in {x} {ver}', '{x} {ver} breaking changes'], ['{x} {ver} 有哪些不兼容改动', '{x} {ver} 比上个版本改了哪些', '{x} {ver} 破坏性变更'], ['{x} {ver} breaking changes 有哪些', '{x} {ver} 改动']),
  F('stat-price', 'status', ['{asset} price', 'how much is {asset} now', '{asset} rate right now'], ['{zasset}现在多少钱', '{zasset}行情', '{zasset}现价'], ['{asset} 现价', '{zasset} price now']),
  F('stat-which-version', 'status', ['what version of {x} is current', 'which {x} version is current', 'is {ver} the newest {x}'], ['{x}现在最新是几', '{x}目前稳定版是哪个', '{x} {ver} 是最新的吗'], ['{x} 现在 stable 是哪个', '{x} newest 版本']),
  F('stat-feature-progress', 'status', ['{x} {feature} progress', 'how close is {x} to {feature}', '{x} {feature} tracking issue'], ['{x}的{zfeature}做到哪了', '{x} {zfeature} 还要多久', '{x}{zfeature}的进度'], ['{x} {feature} 做到哪了', '{x} {zfeature} tracking issue']),
  F('stat-story', 'status', ['we are still on {x} {ver}, is it still getting security fixes', 'is {x} being abandoned', 'last i checked {x} was in beta, has that changed'], ['我们还在用{x} {ver}，现在还有安全更新吗', '{x}是不是快没人维护了', '之前{x}还是测试版，现在转正了吗'], ['我们还在 {x} {ver}，still supported 吗', '{x} 是不是 abandoned 了']),
  F('stat-available', 'status', ['is {product} available in {place}', '{product} in stock', '{x} available in {country} yet'], ['{zproduct}有货吗', '{zproduct}在{zplace}能买了吗', '{x}在国内能用吗'], ['{product} 国内能买吗', '{zproduct} in stock 吗']),
  F('stat-terse', 'status', ['{x} {ver}?', '{x} {ver} status?', 'newest {x}?'], ['{x} {ver}？', '{x}新版？', '{x} {ver} 呢'], ['{x} {ver} 了吗', '{x} latest 几']),
  // ── news ──
  F('news-verbs', 'news', ['{org} launches {product}', '{org} recalls {product}', '{org} cuts prices'], ['{zproduct}上市', '{zproduct}正式开售', '{zorg}涨价', '{zorg}被约谈', '{zorg}遭处罚', '{zorg}官宣降价'], ['{zproduct} 正式 开售', '{org} 被罚 {money}']),
  F('news-people', 'news', ['{person} says {claim}', '{person} interview', '{person} steps down'], ['{zperson}最新发言', '{zperson}回应', '{zperson}卸任'], ['{zperson} 最新 interview', '{person} 回应 争议']),
  F('news-event-recap', 'news', ['{event} highlights', '{event} recap', 'what was announced at {event}'], ['{zevent}亮点', '{zevent}看点汇总', '{zevent}都发布了啥'], ['{event} 亮点', '{zevent} highlights']),
  F('news-incident', 'news', ['{org} data breach', '{org} hit by ransomware', '{org} outage affects millions'], ['{zorg}数据泄露', '{zorg}遭黑客攻击', '{zorg}大面积故障'], ['{org} 数据泄露', '{zorg} breach 事件']),
  F('news-rules', 'news', ['{gov} bans {thing}', '{gov} approves {thing}', '{gov} new rules for {x}'], ['{zgov}出台{zthing}新规', '{zgov}叫停{zthing}', '{zgov}批准{zthing}'], ['{zgov} 新规 {x}', '{gov} ban {zthing}']),
  F('news-market', 'news', ['{org} shares surge', '{org} valuation hits {money}', '{org} raises {money}'], ['{zorg}股价暴涨', '{zorg}估值突破{zmoney}', '{zorg}完成{zmoney}融资'], ['{zorg} 融资 {money}', '{org} 股价 surge']),
  F('news-drama', 'news', ['{org} drama', '{org} controversy', 'the {org} scandal'], ['{zorg}风波', '{zorg}事件始末', '{zorg}争议'], ['{org} 风波', '{zorg} drama']),
  F('news-results', 'news', ['{team} score', '{event} result', 'who won {event}'], ['{zevent}结果', '{zteam}比分', '{zevent}谁赢了'], ['{event} 谁赢了', '{zteam} score']),
  F('news-just', 'news', ['{org} just released {product}', '{product} announced', '{product} launch'], ['{zorg}刚发布{zproduct}', '{zproduct}官宣', '{zproduct}发布'], ['{zproduct} 官宣', '{product} 发布了']),
  F('news-catchup', 'news', ['catch me up on what {org} did this week', 'anything big happen in {x} land lately', 'summarize the latest {org} news for me'], ['帮我梳理一下{zorg}这周的大事', '{zx}圈最近有什么大新闻', '{zorg}最近出了什么事'], ['{zorg} 这周 big news', 'catch up {zx} 最近动态']),
  F('news-terse', 'news', ['{org} nws', 'nwes {org}', '{org} newz'], ['{zorg}快讯', '{zorg}大新闻', '{zorg}动态'], ['{zorg} 快讯 today', '{org} 动态']),
  F('news-world', 'news', ['{country} election results', '{country} earthquake', '{country} protests'], ['{zcountry}大选结果', '{zcountry}地震', '{zcountry}局势'], ['{country} 大选', '{zcountry} election']),
  // ── resource ──
  F('res-mirror', 'resource', ['{site} mirror for {pkgeco}', '{pkgeco} mirror {site}', '{x} apt mirror'], ['{site} {pkgeco} 镜像', '{pkgeco}国内源', '{pkgeco}换源地址'], ['{site} {pkgeco} mirror', '{pkgeco} 国内 mirror']),
  F('res-where', 'resource', ['link to {x} {res}', '{x} {res} url', 'where is the {x} {res}'], ['{x}{zres}在哪', '{x}{zres}链接', '求{x}{zres}'], ['{x} {zres} link', '求 {x} {res}']),
  F('res-files', 'resource', ['{x} {filetype}', '{x} sample {filetype}', '{x} example {filetype} file'], ['{x} {filetype} 文件', '{x}示例{filetype}', '{x}的{filetype}样例'], ['{x} {filetype} 样例', '{x} sample {filetype}']),
  F('res-collection', 'resource', ['list of {x} plugins', 'collection of {x} tools', 'curated {x} links'], ['{x}插件大全', '{x}工具合集', '{x}常用网站'], ['{x} 插件 list', 'curated {x} 合集']),
  F('res-media', 'resource', ['{x} youtube channel', '{x} podcast', '{x} conference talk videos'], ['{x}视频课程', '{x}播客', '{x} B站视频'], ['{x} 视频 channel', '{x} podcast 推荐']),
  F('res-weights', 'resource', ['{model} weights', '{model} gguf', '{model} on huggingface'], ['{model}权重下载', '{model}模型文件', '{model} 量化版'], ['{model} gguf 下载', '{model} 权重 huggingface']),
  F('res-docs-general', 'resource', ['{doc} template', '{doc} pdf', 'blank {doc} form'], ['{zdoc}模板', '{zdoc}范文', '{zdoc}格式下载'], ['{zdoc} template', '{doc} 模板']),
  F('res-community', 'resource', ['{x} discord', '{x} subreddit', '{x} forum'], ['{x}交流群', '{x}官方论坛', '{x}社区入口'], ['{x} discord 群', '{x} 论坛 link']),
  F('res-pages', 'resource', ['{x} status page', '{x} pricing page', '{x} login page'], ['{x}登录入口', '{x}价格页面', '{x}控制台地址'], ['{x} 登录 page', '{x} console 地址']),
  F('res-looking', 'resource', ['need the {x} {res}', 'looking for {x} {res}', 'anyone have the {x} {res}'], ['有没有{x}的{zres}', '找{x}{zres}', '谁有{x}{zres}'], ['找 {x} {res}', '有没有 {x} {zres}']),
  F('res-story', 'resource', ['can you point me to the {res} for {x}, the one for version {ver}', 'i lost the link to the {x} {res}, where can i find it again', 'need an offline copy of the {x} {res} for a flight'], ['能发一下{x} {ver}的{zres}吗', '之前收藏的{x}{zres}找不到了', '想要一份{x}{zres}离线看'], ['{x} {ver} 的 {res} 在哪下', '求 {x} {res} offline 版']),
  F('res-misspelt', 'resource', ['{x} donwload', '{x} dcos', '{x} gihub'], ['{x}下栽', '{x}官往', '{x}文挡'], ['{x} donwload 地址', '{x} gihub 链接']),
  F('res-apps', 'resource', ['{x} app for {os}', '{x} desktop client', '{x} mobile app'], ['{x}手机版', '{x}电脑版', '{x} {os} 客户端'], ['{x} {os} 客户端', '{x} mobile app 下载']),
  // ── exploratory ──
  F('exp-bare', 'exploratory', ['{thing}', '{zxen}', '{x} and {thing}'], ['{zthing}', '{zx}', '{zthing}话题'], ['{zthing} {thing}', '{zxen} {zx}']),
  F('exp-curious', 'exploratory', ['curious about {x}', 'interested in {zxen}', 'want to explore {zxen}'], ['对{zx}很好奇', '想了解{zx}', '想探索一下{zx}'], ['对 {x} 好奇', 'explore 一下 {zx}']),
  F('exp-impact', 'exploratory', ['impact of {zxen} on {domain}', 'how {zxen} is changing {domain}', '{zxen} and {domain}'], ['{zx}对{zdomain}的影响', '{zx}如何改变{zdomain}', '{zx}会颠覆{zdomain}吗'], ['{zx} 对 {domain} 的 impact', '{zxen} 改变 {zdomain}']),
  F('exp-players', 'exploratory', ['big picture of {zxen}', 'who are the main players in {zxen}', 'map of the {zxen} space'], ['{zx}主要玩家有哪些', '{zx}赛道', '{zx}领域都有谁'], ['{zx} 主要 players', '{zxen} 赛道 map']),
  F('exp-hype', 'exploratory', ['is {zxen} overhyped', 'debate around {x}', 'arguments for and against {zxen}'], ['{zx}是不是泡沫', '{zx}被高估了吗', '{zx}的争论'], ['{zx} overhyped 吗', '{zxen} 泡沫']),
  F('exp-careers', 'exploratory', ['careers in {zxen}', 'jobs in {x}', 'working in {zxen}'], ['{zx}就业前景', '做{zx}工作怎么样', '{zx}岗位'], ['{zx} jobs', '{zxen} 就业']),
  F('exp-lay-of-land', 'exploratory', ['i want a broad understanding of {zxen}, not a tutorial, just the lay of the land', 'help me get a feel for the {x} world before i dig in', 'big themes in {zxen} right now'], ['想对{zx}有个整体认识，不用太细', '先大概了解一下{zx}这个领域', '{zx}这块大家都在聊什么'], ['想对 {zx} 有个 overall 认识', '{zxen} 大概是个什么 landscape']),
  F('exp-story', 'exploratory', ['story of {x}', 'how {x} came to be', 'rise of {zxen}'], ['{x}的故事', '{zx}的兴起', '{x}是怎么火起来的'], ['{x} 的 story', 'rise of {zx}']),
  F('exp-fun', 'exploratory', ['cool {x} projects', 'fun facts about {thing}', 'rabbit holes in {zxen}'], ['{zx}有趣的项目', '关于{zthing}的冷知识', '{zx}好玩的东西'], ['{x} 有趣 projects', '{zthing} 冷知识']),
  F('exp-culture', 'exploratory', ['{x} community and culture', 'people behind {x}', '{x} philosophy'], ['{x}社区文化', '{x}背后的团队', '{x}的设计哲学'], ['{x} 的 philosophy', '{x} community 文化']),
  F('exp-misspelt', 'exploratory', ['{x} ecosytem', 'intro {zxen}', '{zxen} landscpe'], ['{zx}盘点', '{zx}全景图', '{zx}概况'], ['{zx} ecosytem', '{x} 概况']),
  F('exp-domains', 'exploratory', ['{zxen} in {domain}', '{thing} and health', '{domain} meets {zxen}'], ['{zx}在{zdomain}中的应用', '{zx}+{zdomain}', '{zdomain}与{zx}'], ['{zx} + {domain}', '{zxen} 和 {zdomain}']),
];
