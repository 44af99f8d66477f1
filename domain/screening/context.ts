/**
 * Context that decides how much a matched phrase means. The same words are an attack when they
 * are addressed to a model and a harmless example when a security article quotes them, so a hit
 * is discounted when it sits inside quotation marks or after "such as" / "例如" in a document
 * whose vocabulary is about attacks and defences.
 */

/** Vocabulary of writing *about* prompt injection and security. Two distinct terms make a discussion. */
const DISCUSSION_TERMS =
  /prompt[- ]injection|提示[词詞]?注入|注入攻[击擊]|jailbreak|越[狱獄]|red[- ]team|[红紅]队|\battack(?:s|er|ers|ed)?\b|攻[击擊]|vulnerab|漏洞|\bexploit|researchers?\b|研究(?:人[员員]|者|[团團]队)|adversarial|[对對]抗|malicious|[恶惡]意|phishing|[钓釣]鱼|bug bounty|\bctf\b|benchmark|基准|defen[cs]e|防御|防[护護]|injected|\binjection\b|\bscam|[诈詐][骗騙]|owasp|proof of concept|threat|威[胁脅]|mitigat|[缓緩]解|advisory|\bcve-|\bghsa-|\bpayload|题解|題解|security researchers?|示例|演示|system prompts?|系[统統]提示[词詞]|prompt engineering|提示[词詞]工程|few-shot|prompt templates?/g;

/** Words that introduce a quoted or cited example rather than an instruction. */
const EXAMPLE_CUE =
  /(?:such as|for example|for instance|e\.g\.|\blike\b|examples?:|ranged from|contain(?:ed|s|ing)?:?|reads?:|saying|says|said|wrote|writes|sentence|string|phrases?|text (?:like|such as)|something like|例如|比如|譬如|[诸諸]如|像是|[类類]似|[写寫]着|[写寫]入|[写寫]道|[内內]容是|[内內]容[为為]|一句|一段[话話]|[这這]样的|[这這]類|[这這]类)[^.!?。!?\n]{0,80}$/;

const NEGATION_BEFORE = /(?:\b(?:never|not|don'?t|do not|must not|should not|shouldn'?t|cannot|can'?t|won'?t|avoid|refuse to|without)\s+(?:\w+\s+)?|(?:不要|不能|切勿|勿|禁止|[别別]|不[会會]|防止|避免|拒[绝絕]))$/;
/** Reported speech: "asks you to ignore…", "tricks the model into…" describe an attack, they are not one. */
const REPORTED_BEFORE = /(?:\b(?:asks?|asked|asking|tells?|told|telling|wants?|wanted|trying|tries|tried|attempts?|attempted|attempting|instructs?|instructed|instructing|tricks?|tricked|tricking|gets?|getting|makes?|making|causes?|causing|forces?|forcing|persuades?|persuading|convinces?|convincing|designed|meant)\s+(?:\w+\s+){0,3}?(?:to|into)\s+|(?:诱导|诱使|試圖|试图|企图|骗|要求模型|让模型|让助手|让\s*ai)[^。!?\n]{0,6})$/;

export function countDiscussionTerms(text: string): number {
  const distinct = new Set<string>();
  for (const match of text.matchAll(DISCUSSION_TERMS)) distinct.add(match[0]);
  return distinct.size;
}

export const DISCUSSION_THRESHOLD = 2;

/** True when an opening quotation mark before `position` (within its paragraph) is still open. */
export function isQuoted(text: string, position: number): boolean {
  const paragraphStart = Math.max(text.lastIndexOf('\n\n', position), position - 400, 0);
  let straight = 0;
  let curly = 0;
  let corner = 0;
  for (let k = paragraphStart; k < position; k++) {
    const char = text[k];
    if (char === '"') straight++;
    else if (char === '“') curly++;
    else if (char === '”') curly = Math.max(0, curly - 1);
    else if (char === '「' || char === '『') corner++;
    else if (char === '」' || char === '』') corner = Math.max(0, corner - 1);
  }
  return straight % 2 === 1 || curly > 0 || corner > 0;
}

export function followsExampleCue(text: string, position: number): boolean {
  return EXAMPLE_CUE.test(text.slice(Math.max(0, position - 100), position).toLowerCase());
}

/** Negated ("never ignore…") or reported ("asks you to ignore…"): the phrase is not an instruction. */
export function isNegated(text: string, position: number): boolean {
  const before = text.slice(Math.max(0, position - 48), position);
  return NEGATION_BEFORE.test(before.slice(-24)) || REPORTED_BEFORE.test(before);
}

const SENTENCE_END = /[.!?。!?\n]/;

/** Whether a match spans two sentences (for payloads split to dodge phrase matching). */
export function crossesSentenceBoundary(matched: string): boolean {
  return SENTENCE_END.test(matched.slice(0, -1));
}
